import { randomUUID } from 'node:crypto';
import type { EventEnvelope } from '@shared/bus/event';
import type { EventHandler } from '@shared/bus/event-consumer';
import { systemContext, type CallContext } from '@shared/bus/call-context';
import { ApiError } from '@shared/errors/api-error';
import type { Session } from '@shared/schema/session';
import type { RuntimeEventBody, UsageDelta } from '@shared/schema/session-event';
import { budgetReached, type ListPrice } from '@shared/usage/list-cost';
import { releaseSessionLease, takeSessionLease } from '../db/session-leases';
import { queueSessionWork } from '../db/work-items';
import { classifyModelFailure, NO_MODEL_CREDENTIALS, type ModelFailure } from '../domain/model-errors';
import { buildModelRequest, modelTools } from '../domain/model-request';
import { responseEvents, spentUnits, tokenUsageOf, usageDelta } from '../domain/model-response';
import { nextStep } from '../domain/next-step';
import { readLogState, type LoggedEvent } from '../domain/session-log';
import type { RuntimeDeps } from '../service';
import type { TSchema } from '@sinclair/typebox';

/** Steps one delivery may take before it hands the session back to the queue (a bound, not an expected count). */
const MAX_STEPS = 50;

/** The lease is held by one drive, not by the replica: two notices of one session in one process still take turns. */
class SessionBusy extends Error {}

const sessionErrorEvents = (failure: ModelFailure, retryStatus: 'exhausted' | 'terminal'): RuntimeEventBody[] => [
  { type: 'session.error', error: { type: failure.type, message: failure.message, retry_status: { type: retryStatus } } },
  { type: 'session.status_idle', stop_reason: { type: 'retries_exhausted' }, stop_details: null },
];

/**
 * Drives one session as far as it can go now, under the session's lease: reads the session and
 * its log, decides the next step from the log (domain/next-step.ts), does it, and reads again,
 * until nothing is left to do. Every write is an append fenced on the log's end, so a step
 * retried after a crash, or raced by a replica whose lease lapsed, records nothing twice; a
 * model request begun and never recorded is sent again under the same start span.
 */
export const driveSession = (deps: RuntimeDeps): EventHandler<TSchema> => async (envelope: EventEnvelope<unknown>) => {
  const { session_id: sessionId } = envelope.data as { session_id: string };
  const holder = `${deps.config.RUNTIME_WORKER_ID}/${randomUUID()}`;
  const leaseFor = () => new Date(deps.clock.now().getTime() + deps.config.RUNTIME_LEASE_MS);
  if (!(await takeSessionLease(deps.db, sessionId, holder, deps.clock.now(), leaseFor()))) {
    // Another drive has it: this notice comes back after a short delay, and finds the work done or still there.
    throw new SessionBusy(`session ${sessionId} is driven elsewhere`);
  }
  const renew = setInterval(() => {
    takeSessionLease(deps.db, sessionId, holder, deps.clock.now(), leaseFor()).catch(() => undefined);
  }, Math.max(500, Math.floor(deps.config.RUNTIME_LEASE_MS / 3)));
  const ctx = systemContext(`req_runtime_${randomUUID().replaceAll('-', '')}`, {
    organization_id: envelope.organization_id,
    workspace_id: envelope.workspace_id,
    scope: 'read_write',
    key_id: 'runtime',
  });
  try {
    for (let step = 0; step < MAX_STEPS; step++) {
      if (!(await runStep(deps, ctx, sessionId))) return;
    }
    deps.logger.warn('session step bound reached; the next notice continues', { session_id: sessionId });
  } catch (err) {
    // A deleted session has nothing left to drive.
    if (err instanceof ApiError && err.type === 'not_found_error') return;
    throw err;
  } finally {
    clearInterval(renew);
    await releaseSessionLease(deps.db, sessionId, holder).catch(() => undefined);
  }
};

/** One step; false when the session needs nothing more now. */
async function runStep(deps: RuntimeDeps, ctx: CallContext, sessionId: string): Promise<boolean> {
  const [session, log] = await Promise.all([deps.sessions.get(ctx, sessionId), deps.sessions.readLog(ctx, sessionId)]);
  const state = readLogState(log);
  const price = await deps.prices.of(ctx, session.agent.model.id);
  const budget = session.budget;
  const reached = budget ? budgetReached(spentUnits(log, price), budget.max_list_cost.amount) : false;
  const step = nextStep(state, { reached });
  switch (step.kind) {
    case 'none':
      return false;
    case 'append':
      return appendFenced(deps, ctx, sessionId, state.last, step.events);
    case 'awaitWorker':
      // At most one live item per session; under the session's lease, so no two drives add one each.
      await queueSessionWork(deps.db, ctx.tenant!, session.environment_id, session.id, deps.clock.now());
      return false;
    case 'callModel':
      return callModel(deps, ctx, session, log, state.last, step.startId, price);
  }
}

/** An append fenced on `after`; a 409 means the log moved on (a send, another replica): read it again. */
async function appendFenced(
  deps: RuntimeDeps,
  ctx: CallContext,
  sessionId: string,
  after: number,
  events: RuntimeEventBody[],
  usage?: UsageDelta,
): Promise<boolean> {
  try {
    await deps.sessions.append(ctx, { session_id: sessionId, after_sequence: after, events, ...(usage ? { usage } : {}) });
  } catch (err) {
    if (err instanceof ApiError && err.status === 409) return true;
    throw err;
  }
  return true;
}

async function callModel(
  deps: RuntimeDeps,
  ctx: CallContext,
  session: Session,
  log: LoggedEvent[],
  last: number,
  openStartId: string | undefined,
  price: ListPrice | null,
): Promise<boolean> {
  if (!deps.model.configured) return appendFenced(deps, ctx, session.id, last, sessionErrorEvents(NO_MODEL_CREDENTIALS, 'terminal'));
  let after = last;
  let startId: string;
  if (openStartId) startId = openStartId;
  else {
    const opening: RuntimeEventBody[] = [];
    if (session.status !== 'running') opening.push({ type: 'session.status_running' });
    opening.push({ type: 'span.model_request_start' });
    try {
      const appended = await deps.sessions.append(ctx, { session_id: session.id, after_sequence: after, events: opening });
      startId = (appended.events.at(-1)!.event as { id: string }).id;
      after = appended.last;
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) return true;
      throw err;
    }
  }
  const { tools, permissions } = modelTools(session.agent, deps.toolset);
  const request = buildModelRequest(session.agent, log, tools, deps.config.MODEL_MAX_TOKENS);
  for (let attempt = 0; ; attempt++) {
    try {
      const message = await deps.model.create(request, AbortSignal.timeout(24 * 3600_000));
      const events = responseEvents(message, startId, permissions);
      return appendFenced(deps, ctx, session.id, after, events, usageDelta(tokenUsageOf(message), price));
    } catch (err) {
      const failure = classifyModelFailure(err);
      deps.logger.warn('model request failed', { session_id: session.id, attempt, type: failure.type, retryable: failure.retryable });
      const end: RuntimeEventBody = {
        type: 'span.model_request_end',
        is_error: true,
        model_request_start_id: startId,
        model_usage: { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
      };
      if (!failure.retryable || attempt >= deps.config.MODEL_MAX_RETRIES) {
        return appendFenced(deps, ctx, session.id, after, [end, ...sessionErrorEvents(failure, failure.retryable ? 'exhausted' : 'terminal')]);
      }
      // Said in the session before waiting: the client sees why nothing happens, then the retry.
      const announced = await deps.sessions
        .append(ctx, {
          session_id: session.id,
          after_sequence: after,
          events: [{ type: 'session.error', error: { type: failure.type, message: failure.message, retry_status: { type: 'retrying' } } }, { type: 'session.status_rescheduled' }],
        })
        .catch((e: unknown) => {
          if (e instanceof ApiError && e.status === 409) return undefined;
          throw e;
        });
      if (!announced) return true;
      after = announced.last;
      await Bun.sleep(deps.config.MODEL_RETRY_BASE_MS * 2 ** attempt);
      const resumed = await deps.sessions.append(ctx, { session_id: session.id, after_sequence: after, events: [{ type: 'session.status_running' }] }).catch(() => undefined);
      if (!resumed) return true;
      after = resumed.last;
    }
  }
}
