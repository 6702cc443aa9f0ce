import { randomUUID } from 'node:crypto';
import { systemContext, type CallContext } from '@shared/bus/call-context';
import { ApiError } from '@shared/errors/api-error';
import type { Session } from '@shared/schema/session';
import type { TenantIds } from '@shared/schema/tenant';
import type { ListPrice } from '@shared/usage/list-cost';
import { budgetReached } from '@shared/usage/list-cost';
import { renewSessionLease } from '../db/session-leases';
import { queueSessionWork, sessionWorkStopping, stopSessionWork } from '../db/work-items';
import { spentUnits } from '../domain/model-response';
import { holdSession, noticedContinuation, type KnownLog, type NoticedAppend } from '../domain/known-logs';
import { nextStep, type NextStep } from '../domain/next-step';
import { readLogState, type LoggedEvent, type LogState } from '../domain/session-log';
import type { RuntimeDeps } from '../deps';
import { callMcpTool } from './call-mcp-tool';
import { callModel } from './call-model';
import { evaluateOutcome } from './evaluate-outcome';
import { appendStep, type AppendedRun, type LogCursor } from './session-log-writes';

/** Steps one delivery may take before it hands the session back to the queue (a bound, not an expected count). */
const MAX_STEPS = 50;

/** The lease is held by one drive, not by the replica: two notices of one session in one process still take turns. */
class SessionBusy extends Error {}

/**
 * The session's worker was told to stop (an interrupt) and has not stopped yet: no new turn, and no
 * new item, until it has, or its worker would run the new turn's calls too. Its heartbeat hears of
 * the stop within half the work lease; the notice comes back after the consumer's short delay.
 */
class WorkerStopping extends Error {}

/**
 * Notices of the session that came while it was being driven (handlers/drive-session.ts counts
 * them). A notice says "look again": the log grew, or the session changed outside it (an archive),
 * so one that came after the drive's last read began makes it read once more before it ends.
 */
export interface DriveDemand {
  notices: number;
  /**
   * Told of each of the drive's own appends before it is sent (the last sequence it makes, how
   * many events), whose notices are then no demand. One that does not land (409: the log moved)
   * takes nothing from the drive: a step whose append was refused always reads again.
   */
  appending: (last: number, count: number) => void;
  /** The append whose notice started the drive, for its first step (taken by it). */
  noticed?: NoticedAppend;
}

/**
 * What a drive did: how many notices its last read covered (each came before that read began),
 * or that it took its bound of steps and the session needs another drive.
 */
export interface DriveResult {
  covered: number;
  bounded: boolean;
}

/**
 * Drives one session as far as it can go now, under the session's lease: reads the session and
 * its log, decides the next step from the log (domain/next-step.ts), does it, and reads again,
 * until nothing is left to do. Every write is an append fenced on the log's end, so a step
 * retried after a crash, or raced by a replica whose lease lapsed, records nothing twice; a
 * model request begun and never recorded is sent again under the same start span.
 */
export async function driveUnderLease(deps: RuntimeDeps, tenant: TenantIds, sessionId: string, demand: DriveDemand = { notices: 0, appending: () => undefined }): Promise<DriveResult> {
  const holder = `${deps.config.RUNTIME_WORKER_ID}/${randomUUID()}`;
  const leaseFor = () => new Date(deps.clock.now().getTime() + deps.config.RUNTIME_LEASE_MS);
  if (!(await deps.leases.take(sessionId, holder, deps.clock.now(), leaseFor()))) {
    // Another drive has it: this notice comes back after a short delay, and finds the work done or still there.
    throw new SessionBusy(`session ${sessionId} is driven elsewhere`);
  }
  const renew = setInterval(() => {
    renewSessionLease(deps.db, sessionId, holder, deps.clock.now(), leaseFor()).catch(() => undefined);
  }, Math.max(500, Math.floor(deps.config.RUNTIME_LEASE_MS / 3)));
  const ctx = systemContext(`req_runtime_${randomUUID().replaceAll('-', '')}`, {
    organization_id: tenant.organization_id,
    workspace_id: tenant.workspace_id,
    scope: 'read_write',
    key_id: 'runtime',
  });
  // The log as read so far: append-only, so each step reads only what came after it, and each
  // drive only what came after the last drive's (domain/known-logs.ts), not the whole log again.
  const known = deps.knownLogs.take(sessionId);
  const log = known.events;
  let covered = demand.notices;
  try {
    for (let step = 0; step < MAX_STEPS; step++) {
      covered = demand.notices;
      const done = await runStep(deps, ctx, sessionId, known, demand);
      // Done when nothing was left to do on the session as read, or nothing is after the step's
      // own appends; unless a notice came since the read began.
      if (demand.notices === covered && (!done.acted || settledAfter(log, done))) {
        deps.knownLogs.keep(sessionId, known);
        return { covered, bounded: false };
      }
    }
    deps.knownLogs.keep(sessionId, known);
    return { covered, bounded: true };
  } catch (err) {
    // A deleted session has nothing left to drive.
    if (err instanceof ApiError && err.type === 'not_found_error') return { covered: Number.POSITIVE_INFINITY, bounded: false };
    throw err;
  } finally {
    clearInterval(renew);
    await deps.leases.release(sessionId, holder).catch(() => undefined);
  }
}

/** What a step did (`acted`: false when the session needed nothing), on what it read, and the appends it made. */
interface StepDone {
  acted: boolean;
  session: Session;
  price: ListPrice | null;
  runs: AppendedRun[];
}

/**
 * After a step that acted, with no notice but of its own appends since its read began: whether
 * the session needs nothing more, decided on the log as it now is, which is the log as read and
 * what the step's appends added (fenced on its end, so nothing came between) when they continue
 * it. The read that would tell found just that at the end of nearly every turn. Anything else
 * (an append after a log that moved, nothing appended, a step left to do) reads the session again.
 */
function settledAfter(log: LoggedEvent[], done: StepDone): boolean {
  let end = log.at(-1)?.sequence ?? 0;
  if (done.runs.length === 0) return false;
  for (const run of done.runs) {
    if (run.from !== end) return false;
    end = run.last;
  }
  // The appends' replies are validated against the same schema as a read's events.
  log.push(...done.runs.flatMap((run) => run.events as LoggedEvent[]));
  return nextStep(readLogState(log), { reached: budgetReachedOn(log, done.session, done.price) }).kind === 'none';
}

const budgetReachedOn = (log: LoggedEvent[], session: Session, price: ListPrice | null) =>
  session.budget ? budgetReached(spentUnits(log, price), session.budget.max_list_cost.amount) : false;

/** One step on the session as read now. */
async function runStep(deps: RuntimeDeps, ctx: CallContext, sessionId: string, known: KnownLog, demand: DriveDemand): Promise<StepDone> {
  const runs: AppendedRun[] = [];
  const session = await sessionAndLog(deps, ctx, sessionId, known, demand);
  const { price, acted } = await decideAndAct(deps, ctx, session, known.events, { appending: demand.appending, landed: (run) => runs.push(run) });
  return { acted, session, price, runs };
}

/**
 * The session, and what its log added to `known`: from the notice that started the drive when it
 * continues what this replica holds, of the session as held (domain/known-logs.ts
 * noticedContinuation: one request and the session's JSON less a turn), else read in one request
 * for both (each read of its own made the deployments service read the session's row).
 */
async function sessionAndLog(deps: RuntimeDeps, ctx: CallContext, sessionId: string, known: KnownLog, demand: DriveDemand): Promise<Session> {
  const noticed = demand.noticed;
  demand.noticed = undefined;
  const added = noticed && noticedContinuation(known, noticed);
  if (added && known.session) {
    known.events.push(...added);
    return known.session.value;
  }
  const read = await deps.sessions.readWithLog(ctx, sessionId, known.events.at(-1)?.sequence ?? 0);
  known.events.push(...read.log);
  holdSession(known, read.session, read.revision);
  return read.session;
}

/** Decides the next step on the session and its log as read, and does it; `acted` false when there was none. */
async function decideAndAct(
  deps: RuntimeDeps,
  ctx: CallContext,
  session: Session,
  log: LoggedEvent[],
  own: Pick<LogCursor, 'appending' | 'landed'>,
): Promise<{ price: ListPrice | null; acted: boolean }> {
  const sessionId = session.id;
  const state = readLogState(log);
  const price = await deps.prices.of(ctx, session.agent.model.id);
  if (session.status === 'terminated') {
    // Ended (an archived session is shown terminated): nothing more runs, its worker included.
    await stopSessionWork(deps.db, sessionId, deps.clock.now());
    return { price, acted: false };
  }
  const step = nextStep(state, { reached: budgetReachedOn(log, session, price) });
  const cursor: LogCursor = { sessionId, after: state.last, ...own };
  return { price, acted: await act(deps, ctx, step, { session, log, cursor, price, state }) };
}

/** Does a step; false when there was nothing to do (or it is waiting on the session's worker). */
async function act(
  deps: RuntimeDeps,
  ctx: CallContext,
  step: NextStep,
  turn: { session: Session; log: LoggedEvent[]; cursor: LogCursor; price: ListPrice | null; state: LogState },
): Promise<boolean> {
  const { session, log, cursor, price, state } = turn;
  const sessionId = session.id;
  const stopping = () => new WorkerStopping(`session ${sessionId}: its worker is still stopping`);
  switch (step.kind) {
    case 'none':
      return false;
    case 'append':
      if (step.stopWorker) await stopSessionWork(deps.db, sessionId, deps.clock.now());
      return appendStep(deps, ctx, cursor, step.events);
    case 'callMcp':
      return callMcpTool(deps, ctx, { session, log, cursor }, step.use);
    case 'awaitWorker': {
      // At most one live item per session; under the session's lease, so no two drives add one each.
      const work = await queueSessionWork(deps.db, ctx.tenant!, session.environment_id, session.id, deps.clock.now(), () =>
        deps.environments.poolOf(ctx, session.environment_id),
      );
      if (work === 'stopping') throw stopping();
      return false;
    }
    case 'callModel':
      // A new turn waits for the interrupted one's worker to be gone: it would see the new calls on
      // its stream and run them. A session that never called a toolset tool never had a worker.
      if (!step.startId && state.workerEverWanted && (await sessionWorkStopping(deps.db, sessionId, deps.clock.now()))) throw stopping();
      return callModel(deps, ctx, { session, log, cursor, price, graded: state.outcome !== undefined && !state.outcome.ended }, step.startId);
    case 'evaluateOutcome':
      return evaluateOutcome(deps, ctx, { session, log, cursor, price }, step.outcome, step.startId);
  }
}
