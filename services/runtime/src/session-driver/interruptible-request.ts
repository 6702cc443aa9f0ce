import type { Message, MessageCreateParamsNonStreaming, MessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import type { CallContext } from '@shared/bus/call-context';
import type { ListPrice, TokenUsage } from '@shared/usage/list-cost';
import type { ModelOutcome } from '../clients/model-api';
import { requestEnd, requestFailedEnd, tokenUsageOf, usageDelta } from '../domain/model-response';
import type { RuntimeDeps } from '../deps';
import { watchForInterrupt } from './interrupt-watch';
import { appendAt, requestModel, type LogCursor } from './session-log-writes';

/** What an interrupt left of a request it stopped: where the log was when it came, what the request had cost by then. */
export interface Interrupted {
  logEnd: number;
  spent: TokenUsage | undefined;
}

/**
 * A model request under its span that a `user.interrupt` stops (interrupt-watch.ts): the agent's
 * turn and a compaction's summary alike, so neither is paid for and waited on to its end once
 * the turn is over. `hear` hears the answer as it streams (the turn's previews).
 */
export async function interruptibleRequest(
  deps: RuntimeDeps,
  ctx: CallContext,
  cursor: LogCursor,
  request: MessageCreateParamsNonStreaming,
  hear?: (event: MessageStreamEvent) => void,
): Promise<{ answer: ModelOutcome; interrupted?: Interrupted }> {
  // What the answer has cost so far, should an interrupt stop it: message_start's input tokens.
  let started: Message['usage'] | undefined;
  const watch = watchForInterrupt(deps, ctx, cursor.sessionId, cursor.after);
  const listener = (event: MessageStreamEvent) => {
    if (event.type === 'message_start') started = event.message.usage;
    hear?.(event);
  };
  try {
    const answer = await requestModel(deps, ctx, cursor, request, { listener, signal: watch.signal });
    if (answer.kind !== 'given_up' || !watch.signal.aborted) return { answer };
    return { answer, interrupted: { logEnd: watch.logEnd, spent: started ? tokenUsageOf({ usage: started }) : undefined } };
  } finally {
    watch.stop();
  }
}

/**
 * Ends the span of a request an interrupt stopped, with what it spent (the turn's end is the
 * next step's); if the log moved further meanwhile, the next step ends it (domain/next-step.ts).
 */
export async function endInterruptedSpan(
  deps: RuntimeDeps,
  ctx: CallContext,
  cursor: LogCursor,
  startId: string,
  { logEnd, spent }: Interrupted,
  price: ListPrice | null,
): Promise<void> {
  const end = spent ? requestEnd(startId, spent, true) : requestFailedEnd(startId);
  await appendAt(deps, ctx, { ...cursor, after: logEnd }, [end], spent && usageDelta(spent, price));
}
