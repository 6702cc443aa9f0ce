import type { Handler, ServedContext } from '@shared/bus/bus-server';
import { tenantOf, type CallContext } from '@shared/bus/call-context';
import type { deploymentSubjects } from '@shared/bus/subjects/deployments';
import type { Executor } from '@shared/db/executor';
import { createBatcher, type Settled } from '@shared/db/batcher';
import { isDuplicateKey } from '@shared/db/duplicate-key';
import { retryTransient } from '@shared/db/retry-transient';
import { ApiError, conflict, invalidRequest } from '@shared/errors/api-error';
import { newId } from '@shared/ids/ids';
import type { FireDeploymentReply, FireDeploymentRequest, RunError, TriggerContext } from '@shared/schema/deployment-run';
import type { SessionAgent } from '@shared/schema/session';
import type { Tenant } from '@shared/schema/tenant';
import type { Static } from '@sinclair/typebox';
import { askAboutReferences } from '../clients/references';
import { applyLockedChange } from '../db/deployments';
import {
  findDeploymentsAndOccurrenceRuns,
  findRunForOccurrence,
  insertRuns,
  lockDeployments,
  setLastRunAtOf,
  type FireRecord,
  type OccurrenceLookup,
} from '../db/runs';
import type { DeploymentRow, DeploymentRunRow } from '../db/schema';
import { newRun, pausesDeployment, scheduledFireRefusal } from '../domain/fire';
import { newSessionRow, sessionFromDeployment } from '../domain/session-create';
import { archivedRefusal, errorPauseChange } from '../domain/lifecycle';
import { deploymentNotFound } from '../domain/not-found';
import { presentDeploymentRun } from '../domain/present';
import { classifyReferences, referenceRunError, rowReferences } from '../domain/references';
import type { DeploymentsDeps } from '../deps';

/** A fire whose deployment changed while its references were being checked starts over, this many times. */
const FIRE_ATTEMPTS = 3;

const fired = (run: DeploymentRunRow): FireDeploymentReply => ({ outcome: 'fired', run: presentDeploymentRun(run) });

/** The scheduler's fire of an occurrence (`deployments.fire`); the `run` route calls `fire` below with a manual trigger. */
export const fireDeployment =
  (deps: DeploymentsDeps): Handler<typeof deploymentSubjects.fire> =>
  (request, ctx) =>
    fire(deps, ctx, request);

/**
 * Fires a deployment: for the scheduler (schedule triggers) and the `run` route (manual triggers).
 *
 * 1. Scheduled: the run already recorded for (deployment, scheduled_at) is the answer, whatever
 *    happened since (idempotency; a UNIQUE key on the runs table backs it). Otherwise the
 *    deployment must still fire on schedule by its own row (not paused, archived, gone or
 *    unscheduled), else `skipped`. Manual: the deployment must exist (404) and not be archived
 *    (400); paused is fine.
 * 2. Every reference is re-checked with its owner; the first problem is the run's error. The
 *    session's agent snapshot comes from the replica's cache of immutable agent versions (the
 *    catalog is asked once per version). A bus failure (timeout, no responders) is not a run
 *    error: it propagates, nothing is recorded, and the scheduler retries the occurrence.
 * 3. One transaction, under the deployment's row lock: the checks of step 1 again (a pause that
 *    committed meanwhile wins), then the session, the run and `sessions.created` (or the failed
 *    run), `last_run_at` for a successful scheduled run, and for a scheduled run failing with a
 *    paused-reason kind, the pause with `deployments.paused`. If the deployment's revision moved
 *    since step 1, the references checked may be stale: the fire starts over. The fires of this
 *    process that reach step 3 together share that transaction (see FireWriter): each gets
 *    exactly the checks and writes it would get alone.
 */
export async function fire(
  deps: DeploymentsDeps,
  ctx: ServedContext,
  request: Static<typeof FireDeploymentRequest>,
): Promise<FireDeploymentReply> {
  const tenant = tenantOf(ctx);
  // A fire holds no connection of its own: its reads and writes go through this replica's fire
  // batchers, which take tenants in turn. Holding the tenant's slot through them capped one
  // tenant at TENANT_MAX_CONCURRENCY fires per batch round trip (about 310 fires/s).
  ctx.releaseTenantSlot?.();
  const { deployment_id: id, trigger } = request;
  const scheduledAt = trigger.type === 'schedule' ? new Date(trigger.scheduled_at) : null;
  if (scheduledAt && Number.isNaN(scheduledAt.getTime())) throw invalidRequest('trigger.scheduled_at: must be a timestamp');
  for (let attempt = 1; ; attempt++) {
    try {
      const reply = await tryFire(deps, ctx, tenant, id, trigger, scheduledAt);
      if (reply) return reply;
    } catch (err) {
      // Two fires of one occurrence both got past the lock-free checks; the key kept one run.
      if (!scheduledAt || !isDuplicateKey(err)) throw err;
      const existing = await findRunForOccurrence(deps.db, id, scheduledAt);
      if (existing) return fired(existing);
      throw err;
    }
    if (attempt >= FIRE_ATTEMPTS) {
      throw conflict(`deployment '${id}' kept changing while it was being fired; try again`);
    }
  }
}

/**
 * Null when the deployment changed under the fire (start over).
 *
 * Its database work is shared with the other fires of this replica in progress at the same
 * moment (see createBatchers): the first read (deployment and occurrence run) and the write of step 3.
 */
async function tryFire(
  deps: DeploymentsDeps,
  ctx: CallContext,
  tenant: Tenant,
  id: string,
  trigger: TriggerContext,
  scheduledAt: Date | null,
): Promise<FireDeploymentReply | null> {
  const { reader, writer } = batchersOf(deps);
  const { deployment: seen, run: recorded } = await reader.call({ tenant, id, scheduledAt });
  if (recorded) return fired(recorded);
  const early = refusal(seen, id, scheduledAt);
  if (early) return early;

  const references = rowReferences(seen!);
  const verdict = classifyReferences(references, await askAboutReferences(deps.bus, ctx, references));
  let error = verdict.ok ? null : referenceRunError(verdict.problem);
  const agent = error ? null : await agentSnapshot(deps, ctx, seen!);
  if (!error && !agent) error = { type: 'session_resource_not_found_error', message: `agent '${seen!.agentId}' version ${seen!.agentVersion} no longer exists` };
  return writer.call({ tenant, id, seenRevision: seen!.revision, trigger, scheduledAt, error, agent });
}

/**
 * The session's agent snapshot, from the replica's cache of immutable agent versions (one catalog
 * call per version and replica, ever). Null when the catalog no longer has the version (checked
 * a moment ago, so only a race with its removal): the run records that error. Any other failure
 * (the catalog not answering) propagates like a reference check's: nothing recorded, retried.
 */
async function agentSnapshot(deps: DeploymentsDeps, ctx: CallContext, row: DeploymentRow): Promise<SessionAgent | null> {
  try {
    return await deps.agents.get(ctx, row.agentId, row.agentVersion);
  } catch (err) {
    if (err instanceof ApiError && err.type === 'not_found_error') return null;
    throw err;
  }
}

/** What step 3 needs of one fire. */
interface FireWrite {
  tenant: Tenant;
  id: string;
  /** The revision step 1 read (and checked references against). */
  seenRevision: number;
  trigger: TriggerContext;
  scheduledAt: Date | null;
  error: RunError | null;
  /** The session's agent snapshot (of the revision checked); null with an error. */
  agent: SessionAgent | null;
}

/** Most fires one batch serves. */
const MAX_FIRES_PER_BATCH = 100;
/** Batches in progress at once per replica and kind: one commits while the next is built. */
const CONCURRENT_BATCHES = 2;

/**
 * Step 3 of a batch of fires in one transaction (recordFires): the deployments locked in one
 * statement (primary-key order, so two such transactions never deadlock), one multi-row insert
 * per table, one last_run_at update, one commit, one log flush. Each fire keeps its own
 * checks and outcome, exactly as alone: its tenant, the refusals of step 1 again under the
 * lock, the revision it was checked at. A run key collision (the same occurrence recorded
 * meanwhile elsewhere) refuses the whole multi-row insert and rolls the transaction back; its
 * fires are then written one per transaction, so only the colliding one fails (and `fire`
 * answers it with the run already recorded).
 */
async function writeFires(deps: DeploymentsDeps, writes: FireWrite[]): Promise<Settled<FireDeploymentReply | null>[]> {
  try {
    const outcomes = await retryTransient(() => deps.db.transaction((tx) => recordFires(tx, writes, deps.clock.now())));
    if (outcomes.some((o) => o.ok && o.recorded)) deps.eventsRecorded();
    return outcomes.map((o) => (o.ok ? { ok: true, value: o.reply } : o));
  } catch (error) {
    if (writes.length === 1 || !isDuplicateKey(error)) throw error;
    const singles: Settled<FireDeploymentReply | null>[] = [];
    for (const w of writes) singles.push(await writeFires(deps, [w]).then((r) => r[0]!, (e) => ({ ok: false, error: e })));
    return singles;
  }
}

const batchers = new WeakMap<DeploymentsDeps, ReturnType<typeof createBatchers>>();
/**
 * The concurrent fires of one replica share their database work (shared/db/batcher.ts): at most
 * one fire per deployment in a batch, so each sees what the previous fire of its deployment did.
 * Under load (the scheduler's minute boundary, hundreds of fires a second) one statement or one
 * transaction serves dozens of fires, which hold a pool connection or two instead of one each,
 * which is what ran the pool dry.
 */
const fireBatches = (deps: DeploymentsDeps) => ({
  maxBatch: MAX_FIRES_PER_BATCH,
  concurrency: CONCURRENT_BATCHES,
  keyOf: (item: { id: string }) => item.id,
  ...deps.tenantLanes((item: { tenant: Tenant }) => item.tenant),
});
const createBatchers = (deps: DeploymentsDeps) => ({
  reader: createBatcher(
    async (lookups: OccurrenceLookup[]) =>
      (await findDeploymentsAndOccurrenceRuns(deps.db, lookups)).map((value) => ({ ok: true as const, value })),
    fireBatches(deps),
  ),
  writer: createBatcher((writes: FireWrite[]) => writeFires(deps, writes), fireBatches(deps)),
});
/** The replica's batchers (the fire and run handlers share their deps). */
function batchersOf(deps: DeploymentsDeps) {
  let found = batchers.get(deps);
  if (!found) batchers.set(deps, (found = createBatchers(deps)));
  return found;
}

/** One fire's step 3: its reply (null: start over) and whether it recorded anything, or what it throws. */
type WriteOutcome = { ok: true; reply: FireDeploymentReply | null; recorded: boolean } | { ok: false; error: unknown };

/** Step 3 of several fires (distinct deployments) in the caller's transaction; one outcome per fire, in order. */
async function recordFires(tx: Executor, writes: FireWrite[], now: Date): Promise<WriteOutcome[]> {
  const locked = new Map((await lockDeployments(tx, writes.map((w) => w.id))).map((row) => [row.id, row]));
  const outcomes: WriteOutcome[] = [];
  const records: FireRecord[] = [];
  const lastRunOf: string[] = [];
  const pauses: Array<{ row: DeploymentRow; error: Parameters<typeof errorPauseChange>[1] }> = [];
  for (const w of writes) {
    const row = locked.get(w.id);
    // Another tenant's deployment is no deployment (as findOwnedRow reads it).
    const current = row && row.organizationId === w.tenant.organization_id && row.workspaceId === w.tenant.workspace_id ? row : undefined;
    if (current?.revision !== w.seenRevision) {
      // Changed since step 1 (every change moves the revision; an unchanged row passed step 1's
      // checks already): a pause, archive or schedule change that committed meanwhile wins.
      let late: FireDeploymentReply | undefined;
      try {
        late = refusal(current, w.id, w.scheduledAt);
      } catch (error) {
        outcomes.push({ ok: false, error });
        continue;
      }
      // An occurrence already fired is answered with its run, whatever happened since (step 1).
      const existing = late && w.scheduledAt && current ? await findRunForOccurrence(tx, w.id, w.scheduledAt) : undefined;
      outcomes.push({ ok: true, reply: existing ? fired(existing) : (late ?? null), recorded: false });
      continue;
    }
    const session = w.error || !w.agent ? null : newSessionRow(newId('session'), sessionFromDeployment(current!, w.agent), now);
    const run = newRun(current!, { run: newId('deploymentRun'), session: session?.id ?? null }, w.trigger, w.scheduledAt, w.error, now);
    records.push({ run, session });
    // Manual runs never move last_run_at (the SDK: "Manual runs do not update this").
    if (session && w.trigger.type === 'schedule') lastRunOf.push(current!.id);
    else if (!session && pausesDeployment(w.trigger, w.error)) pauses.push({ row: current!, error: w.error });
    outcomes.push({ ok: true, reply: fired(run), recorded: true });
  }
  // A run recorded meanwhile for one of these occurrences fails this on the unique key (see writeFires).
  await insertRuns(tx, records);
  await setLastRunAtOf(tx, lastRunOf, now);
  for (const { row, error } of pauses) await applyLockedChange(tx, row, errorPauseChange(row, error), now);
  return outcomes;
}

/** Why the deployment's row ends the fire before anything is recorded: a skip, or the manual run's error. */
function refusal(row: DeploymentRow | undefined, id: string, scheduledAt: Date | null): FireDeploymentReply | undefined {
  if (scheduledAt) {
    const reason = scheduledFireRefusal(row, scheduledAt);
    return reason ? { outcome: 'skipped', reason } : undefined;
  }
  if (!row) throw deploymentNotFound(id);
  if (row.archivedAt) throw archivedRefusal(id, 'run');
  return undefined;
}
