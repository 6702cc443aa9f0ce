import type { ContentBlockParam, Message, MessageCreateParamsNonStreaming, MessageParam, TextBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { RuntimeEventBody } from '@shared/schema/session-event';
import { turnEndingError, type ModelFailure } from './model-errors';
import { answeredCall, type LoggedEvent, type LogState } from './session-log';

/**
 * Long sessions: when a conversation nears the model's context window it is compacted by a
 * summary turn (a Messages API request asking the model to summarize it, so it works against any
 * endpoint that speaks the API), recorded as `agent.thread_context_compacted` inside the span of
 * the turn it was made for; the turns after it send the summary and the events after it only.
 * The summary itself is the runtime's (db/context-summaries.ts), never shown to clients.
 */

/** The context window assumed for a model the catalog says nothing about (the Messages API's smallest current one). */
export const CONTEXT_WINDOW_FALLBACK = 200_000;

/** Compactions in a row, with no message or tool call from the model between them, before the turn gives up (SDK compaction_limit_reached_error). */
export const COMPACTIONS_IN_A_ROW_MAX = 2;

/** About four characters of English text or JSON to a token: an estimate, corrected by each response's reported usage. */
const CHARS_PER_TOKEN = 4;
/** What an image or a base64 document is counted as (its base64 length says nothing of its tokens). */
const MEDIA_TOKENS = 1_600;

/** Where the conversation was last compacted: the compacted event's place in the log, and the span its summary was made in. */
export interface Compaction {
  index: number;
  startId: string;
}

export function lastCompaction(log: readonly LoggedEvent[]): Compaction | undefined {
  for (let i = log.length - 1; i >= 0; i--) {
    if (log[i]!.event.type !== 'agent.thread_context_compacted') continue;
    for (let j = i - 1; j >= 0; j--) {
      const { event } = log[j]!;
      if (event.type === 'span.model_request_start') return { index: i, startId: event.id };
    }
    return undefined;
  }
  return undefined;
}

/** An event's size in tokens, roughly: its JSON at four characters a token, media counted apart. */
function approxTokens(event: LoggedEvent['event']): number {
  let media = 0;
  const json = JSON.stringify(event, (key, value: unknown) => {
    if (key === 'data' && typeof value === 'string') {
      media++;
      return '';
    }
    return value;
  });
  return Math.ceil(json.length / CHARS_PER_TOKEN) + media * MEDIA_TOKENS;
}

/**
 * The input the next turn would send, estimated: the last turn's reported usage (everything it
 * read and wrote: input, cache reads and writes, output) plus what came after it, roughly.
 * Undefined when no turn was answered since the last compaction: there is nothing new to
 * compact, and a request too long anyway is refused by the API ("prompt is too long"), which
 * compacts too.
 */
export function estimatedContextTokens(log: readonly LoggedEvent[]): number | undefined {
  const compaction = lastCompaction(log);
  for (let i = log.length - 1; i > (compaction?.index ?? -1); i--) {
    const { event } = log[i]!;
    if (event.type !== 'span.model_request_end' || event.is_error !== false || event.model_request_start_id === compaction?.startId) continue;
    const u = event.model_usage;
    let tokens = u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens + u.output_tokens;
    for (const after of log.slice(i + 1)) tokens += approxTokens(after.event);
    return tokens;
  }
  return undefined;
}

/** Whether the next turn should compact first: its estimated input past `threshold` of the window. */
export function contextNearlyFull(log: readonly LoggedEvent[], windowTokens: number, threshold: number): boolean {
  const estimate = estimatedContextTokens(log);
  return estimate !== undefined && estimate > windowTokens * threshold;
}

/** The Messages API's refusal of a request longer than the context window (400 "prompt is too long: N tokens > M maximum"). */
export const promptTooLong = (failure: ModelFailure): boolean =>
  failure.type === 'model_request_failed_error' && !failure.retryable && /prompt is too long/i.test(failure.message);

/**
 * The log as the next turn reads it: the events after the last compaction (the summary stands
 * for the ones before), and the earlier system.messages, which are part of the system prompt.
 * An answer to a call made before the compaction (a worker's late result of an interrupted call)
 * is left out: its tool_use is in the summary, and the API refuses a result with no call.
 */
export function eventsInContext(log: readonly LoggedEvent[], compaction: Compaction | undefined): LoggedEvent[] {
  if (!compaction) return [...log];
  const kept = log.slice(compaction.index + 1);
  const calls = new Set(kept.filter(({ event }) => event.type.endsWith('tool_use')).map(({ event }) => event.id));
  const answersKept = kept.filter(({ event }) => {
    const call = answeredCall(event);
    return call === undefined || calls.has(call);
  });
  return [...log.slice(0, compaction.index).filter(({ event }) => event.type === 'system.message'), ...answersKept];
}

const SUMMARY_PREFACE =
  'This session is being continued from an earlier conversation that ran out of context. It was summarized below; continue the work from where it stopped, without asking the user to repeat anything.';

const blocksOf = (content: MessageParam['content']): ContentBlockParam[] => (typeof content === 'string' ? [{ type: 'text', text: content }] : content);

/** The turn's request with the summary first, as the start of the conversation's first user message. */
export function withSummary(request: MessageCreateParamsNonStreaming, summary: string | undefined): MessageCreateParamsNonStreaming {
  if (summary === undefined) return request;
  const block: TextBlockParam = { type: 'text', text: `${SUMMARY_PREFACE}\n\n<summary>\n${summary}\n</summary>` };
  const [first, ...rest] = request.messages;
  const messages: MessageParam[] =
    first?.role === 'user' ? [{ role: 'user', content: [block, ...blocksOf(first.content)] }, ...rest] : [{ role: 'user', content: [block] }, ...request.messages];
  return { ...request, messages };
}

const SUMMARY_INSTRUCTION = [
  'Your context window is nearly full: this conversation will be replaced by a summary you write now, and the work goes on from that summary alone.',
  'Write it for yourself, to continue without the conversation. Include:',
  '1. The task and every request of the user, the latest one quoted verbatim.',
  '2. Decisions made and why, and constraints or preferences the user stated.',
  '3. What has been done: files created or changed (their paths), commands run, results and errors that matter, identifiers and values still needed.',
  '4. The current state, the open work and the next step.',
  'Answer with the summary only, as plain text; call no tool.',
].join('\n');

/**
 * The summary turn, when the conversation still fits: the turn's own request (system, tools and
 * messages as they are, so it reads the prefix the earlier turns cached) with the instruction to
 * summarize added as the last user text.
 */
export function summaryRequest(turn: MessageCreateParamsNonStreaming): MessageCreateParamsNonStreaming {
  const instruction: TextBlockParam = { type: 'text', text: SUMMARY_INSTRUCTION };
  const last = turn.messages.at(-1);
  const messages: MessageParam[] =
    last?.role === 'user'
      ? [...turn.messages.slice(0, -1), { role: 'user', content: [...blocksOf(last.content), instruction] }]
      : [...turn.messages, { role: 'user', content: [instruction] }];
  return { ...turn, messages };
}

/**
 * The summary turn when the conversation itself is too long for the model: the earlier summary
 * and a plain-text transcript of the events since (`transcript`, already bounded by the caller),
 * under the agent's own model, without tools.
 */
export function transcriptSummaryRequest(
  model: string,
  maxTokens: number,
  previous: string | undefined,
  transcript: string,
): MessageCreateParamsNonStreaming {
  const parts = [
    ...(previous !== undefined ? [`<earlier_summary>\n${previous}\n</earlier_summary>`] : []),
    `<transcript>\n${transcript}\n</transcript>`,
    SUMMARY_INSTRUCTION,
  ];
  return {
    model,
    max_tokens: maxTokens,
    system: 'You are an autonomous agent whose conversation no longer fits its context window; you summarize it so the work can go on.',
    messages: [{ role: 'user', content: parts.join('\n\n') }],
  };
}

/** The summary a response gives: its text, or undefined when it has none. */
export function summaryText(message: Pick<Message, 'content'>): string | undefined {
  const text = message.content
    .flatMap((block) => (block.type === 'text' ? [block.text] : []))
    .join('\n')
    .trim();
  return text.length > 0 ? text : undefined;
}

/** Whether the conversation was compacted as often in a row as the SDK's limit allows. */
export const compactionLimitReached = (state: Pick<LogState, 'compactionsInARow'>): boolean => state.compactionsInARow >= COMPACTIONS_IN_A_ROW_MAX;

const LIMIT_REACHED: ModelFailure = {
  type: 'compaction_limit_reached_error',
  message: `the conversation was compacted ${COMPACTIONS_IN_A_ROW_MAX} times in a row and still does not fit the model's context window; send a shorter message to go on`,
  retryable: false,
};

/** The turn given up at the limit: the SDK's error, `exhausted`, and the session idle with retries_exhausted. */
export const compactionLimitEvents = (): RuntimeEventBody[] => turnEndingError(LIMIT_REACHED);

const NO_SUMMARY: ModelFailure = {
  type: 'model_request_failed_error',
  message: 'the model answered the request to summarize the conversation (which no longer fits its context window) without a summary',
  retryable: false,
};

/** A summary turn answered with no text: the turn ends, as after a failed request. */
export const noSummaryEvents = (): RuntimeEventBody[] => turnEndingError(NO_SUMMARY);
