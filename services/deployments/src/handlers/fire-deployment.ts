import type { Handler } from '@shared/bus/bus-server';
import { tenantOf, type CallContext } from '@shared/bus/call-context';
import type { deploymentSubjects } from '@shared/bus/subjects/deployments';
import type { Executor } from '@shared/db/executor';
import { retryTransient } from '@shared/db/retry-transient';
import { conflict, invalidRequest } from '@shared/errors/api-error';
import { newId } from '@shared/ids/ids';
import type { FireDeploymentReply, FireDeploymentRequest, RunError, TriggerContext } from '@shared/schema/deployment-run';
import type { Tenant } from '@shared/schema/tenant';
import type { Static } from '@sinclair/typebox';
import { askAboutReferences } from '../clients/references';
import { findDeployment, setLastRunAt, applyLockedChange } from '../db/deployments';
import { findRunForOccurrence, insertRun, isDuplicateKey } from '../db/runs';
import type { DeploymentRow, DeploymentRunRow } from '../db/schema';
import { newRun, newSession, pausesDeployment, scheduledFireRefusal } from '../domain/fire';
import { archivedRefusal, errorPauseChange } from '../domain/lifecycle';
import { deploymentNotFound } from '../domain/not-found';
import { presentDeploymentRun } from '../domain/present';
import { classifyReferences, referenceRunError, rowReferences } from '../domain/references';
import type { DeploymentsDeps } from '../service';

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
 * 2. Every reference is re-checked with its owner; the first problem is the run's error. A bus
 *    failure (timeout, no responders) is not a run error: it propagates, nothing is recorded,
 *    and the scheduler retries the occurrence.
 * 3. One transaction, under the deployment's row lock: the checks of step 1 again (a pause that
 *    committed meanwhile wins), then the session, the run and `sessions.created` (or the failed
 *    run), `last_run_at` for a successful scheduled run, and for a scheduled run failing with a
 *    paused-reason kind, the pause with `deployments.paused`. If the deployment's revision moved
 *    since step 1, the references checked may be stale: the fire starts over.
 */
export async function fire(
  deps: DeploymentsDeps,
  ctx: CallContext,
  request: Static<typeof FireDeploymentRequest>,
): Promise<FireDeploymentReply> {
  const tenant = tenantOf(ctx);
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

/** Null when the deployment changed under the fire (start over). */
async function tryFire(
  deps: DeploymentsDeps,
  ctx: CallContext,
  tenant: Tenant,
  id: string,
  trigger: TriggerContext,
  scheduledAt: Date | null,
): Promise<FireDeploymentReply | null> {
  const seen = await findDeployment(deps.db, tenant, id);
  const early = await refusalOrExisting(deps.db, seen, id, scheduledAt);
  if (early) return early;

  const references = rowReferences(seen!);
  const verdict = classifyReferences(references, await askAboutReferences(deps.bus, ctx, references));
  const error = verdict.ok ? null : referenceRunError(verdict.problem);

  const outcome = await retryTransient(() =>
    deps.db.transaction(async (tx) => {
      const current = await findDeployment(tx, tenant, id, { lock: true });
      const late = await refusalOrExisting(tx, current, id, scheduledAt);
      if (late) return { reply: late, recorded: false };
      if (current!.revision !== seen!.revision) return null;
      const run = await recordRun(tx, current!, trigger, scheduledAt, error, deps.clock.now());
      return { reply: fired(run), recorded: true };
    }),
  );
  if (outcome?.recorded) deps.eventsRecorded();
  return outcome ? outcome.reply : null;
}

/** Step 1's answer when it ends the fire: the existing run, a skip, or the manual run's error. */
async function refusalOrExisting(
  db: Executor,
  row: DeploymentRow | undefined,
  id: string,
  scheduledAt: Date | null,
): Promise<FireDeploymentReply | undefined> {
  if (scheduledAt) {
    const existing = row ? await findRunForOccurrence(db, id, scheduledAt) : undefined;
    if (existing) return fired(existing);
    const reason = scheduledFireRefusal(row, scheduledAt);
    return reason ? { outcome: 'skipped', reason } : undefined;
  }
  if (!row) throw deploymentNotFound(id);
  if (row.archivedAt) throw archivedRefusal(id, 'run');
  return undefined;
}

/** Step 3's writes, under the row lock. */
async function recordRun(
  tx: Executor,
  row: DeploymentRow,
  trigger: TriggerContext,
  scheduledAt: Date | null,
  error: RunError | null,
  now: Date,
): Promise<DeploymentRunRow> {
  const session = error ? null : newSession(row, newId('session'), now);
  const run = newRun(row, { run: newId('deploymentRun'), session: session?.id ?? null }, trigger, scheduledAt, error, now);
  await insertRun(tx, run, session);
  // Manual runs never move last_run_at (the SDK: "Manual runs do not update this").
  if (session && trigger.type === 'schedule') await setLastRunAt(tx, row.id, now);
  else if (!session && pausesDeployment(trigger, error)) await applyLockedChange(tx, row, errorPauseChange(row, error), now);
  return run;
}
