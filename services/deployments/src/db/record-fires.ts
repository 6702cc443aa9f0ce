import type { Settled } from '@shared/db/batcher';
import { isDuplicateKey } from '@shared/db/duplicate-key';
import type { Executor } from '@shared/db/executor';
import { retryTransient } from '@shared/db/retry-transient';
import { newId } from '@shared/ids/ids';
import type { FireDeploymentReply, RunError, TriggerContext } from '@shared/schema/deployment-run';
import type { SessionAgent } from '@shared/schema/session';
import type { Tenant } from '@shared/schema/tenant';
import type { StoreDeps } from '@shared/service-host/store-deps';
import { fireRefusal, firedReply, newRun, pausesDeployment } from '../domain/fire';
import { errorPauseChange } from '../domain/lifecycle';
import { ownRow } from '../domain/row-tenant';
import { newSessionRow, sessionFromDeployment } from '../domain/session-create';
import { applyLockedChange } from './deployments';
import { findRunForOccurrence, insertRuns, lockDeployments, setLastRunAtOf, type FireRecord } from './runs';
import type { MemoryStoreSnapshots } from '../domain/references';
import type { DeploymentRow } from './schema';

/** What the fire's write (its step 3, handlers/fire-deployment.ts) needs of one fire. */
export interface FireWrite {
  tenant: Tenant;
  id: string;
  /** The revision step 1 read (and checked references against). */
  seenRevision: number;
  trigger: TriggerContext;
  scheduledAt: Date | null;
  error: RunError | null;
  /** The session's agent snapshot (of the revision checked); null with an error. */
  agent: SessionAgent | null;
  /** What the session snapshots of the memory stores it mounts (of the revision checked). */
  memoryStores: MemoryStoreSnapshots;
}

/** One fire's write: its reply (null: start over) and whether it recorded anything, or what it throws. */
type WriteOutcome = { ok: true; reply: FireDeploymentReply | null; recorded: boolean } | { ok: false; error: unknown };

/**
 * The write of a batch of fires in one transaction (recordFires): the deployments locked in one
 * statement (primary-key order, so two such transactions never deadlock), one multi-row insert
 * per table, one last_run_at update, one commit, one log flush. Each fire keeps its own
 * checks and outcome, exactly as alone: its tenant, the refusals of step 1 again under the
 * lock, the revision it was checked at. A run key collision (the same occurrence recorded
 * meanwhile elsewhere) refuses the whole multi-row insert and rolls the transaction back; its
 * fires are then written one per transaction, so only the colliding one fails (and the fire
 * answers it with the run already recorded). The fire batcher's `run` (start-deployments.ts).
 */
export async function writeFires(
  store: Pick<StoreDeps, 'db' | 'clock' | 'eventsRecorded'>,
  writes: FireWrite[],
): Promise<Settled<FireDeploymentReply | null>[]> {
  try {
    const outcomes = await retryTransient(() => store.db.transaction((tx) => recordFires(tx, writes, store.clock.now())));
    if (outcomes.some((o) => o.ok && o.recorded)) store.eventsRecorded();
    return outcomes.map((o) => (o.ok ? { ok: true, value: o.reply } : o));
  } catch (error) {
    if (writes.length === 1 || !isDuplicateKey(error)) throw error;
    const singles: Settled<FireDeploymentReply | null>[] = [];
    for (const w of writes) singles.push(await writeFires(store, [w]).then((r) => r[0]!, (e) => ({ ok: false, error: e })));
    return singles;
  }
}

/** The write of several fires (distinct deployments) in the caller's transaction; one outcome per fire, in order. */
async function recordFires(tx: Executor, writes: FireWrite[], now: Date): Promise<WriteOutcome[]> {
  const locked = new Map((await lockDeployments(tx, writes.map((w) => w.id))).map((row) => [row.id, row]));
  const outcomes: WriteOutcome[] = [];
  const records: FireRecord[] = [];
  const lastRunOf: string[] = [];
  const pauses: Array<{ row: DeploymentRow; error: Parameters<typeof errorPauseChange>[1] }> = [];
  for (const w of writes) {
    const current = ownRow(locked.get(w.id), w.tenant);
    if (current?.revision !== w.seenRevision) {
      // Changed since step 1 (every change moves the revision; an unchanged row passed step 1's
      // checks already): a pause, archive or schedule change that committed meanwhile wins.
      let late: FireDeploymentReply | undefined;
      try {
        late = fireRefusal(current, w.id, w.scheduledAt);
      } catch (error) {
        outcomes.push({ ok: false, error });
        continue;
      }
      // An occurrence already fired is answered with its run, whatever happened since (step 1).
      const existing = late && w.scheduledAt && current ? await findRunForOccurrence(tx, w.id, w.scheduledAt) : undefined;
      outcomes.push({ ok: true, reply: existing ? firedReply(existing) : (late ?? null), recorded: false });
      continue;
    }
    const session = w.error || !w.agent ? null : newSessionRow(newId('session'), sessionFromDeployment(current!, w.agent, w.memoryStores), now);
    const run = newRun(current!, { run: newId('deploymentRun'), session: session?.id ?? null }, w.trigger, w.scheduledAt, w.error, now);
    records.push({ run, session });
    // Manual runs never move last_run_at (the SDK: "Manual runs do not update this").
    if (session && w.trigger.type === 'schedule') lastRunOf.push(current!.id);
    else if (!session && pausesDeployment(w.trigger, w.error)) pauses.push({ row: current!, error: w.error });
    outcomes.push({ ok: true, reply: firedReply(run), recorded: true });
  }
  // A run recorded meanwhile for one of these occurrences fails this on the unique key (see writeFires).
  await insertRuns(tx, records);
  await setLastRunAtOf(tx, lastRunOf, now);
  for (const { row, error } of pauses) await applyLockedChange(tx, row, errorPauseChange(row, error), now);
  return outcomes;
}
