import type { Handler, ServedContext } from '@shared/bus/bus-server';
import { tenantOf, type CallContext } from '@shared/bus/call-context';
import type { deploymentSubjects } from '@shared/bus/subjects/deployments';
import { isDuplicateKey } from '@shared/db/duplicate-key';
import { ApiError, conflict, invalidRequest } from '@shared/errors/api-error';
import type { FireDeploymentReply, FireDeploymentRequest, TriggerContext } from '@shared/schema/deployment-run';
import type { SessionAgent } from '@shared/schema/session';
import type { Tenant } from '@shared/schema/tenant';
import type { Static } from '@sinclair/typebox';
import { checkReferences } from '../clients/references';
import type { DeploymentsDeps } from '../deps';
import { findRunForOccurrence } from '../db/runs';
import type { DeploymentRow } from '../db/schema';
import { fireRefusal, firedReply } from '../domain/fire';
import { referenceRunError, rowReferences } from '../domain/references';

/** A fire whose deployment changed while its references were being checked starts over, this many times. */
const FIRE_ATTEMPTS = 3;

/** The scheduler's fire of an occurrence (`deployments.fire`). */
export const fireDeployment =
  (deps: DeploymentsDeps): Handler<typeof deploymentSubjects.fire> =>
  (request, ctx) =>
    fire(deps, ctx, request);

/**
 * The manual run (`deployments.run`): the same fire with a manual trigger. It has its own
 * subject so the gateway can be allowed this one and refused `fire`, which accepts scheduled
 * triggers too.
 */
export const runDeployment =
  (deps: DeploymentsDeps): Handler<typeof deploymentSubjects.run> =>
  async ({ deployment_id }, ctx) => {
    const reply = await fire(deps, ctx, { deployment_id, trigger: { type: 'manual' } });
    // A manual trigger is never skipped; anything else is a bug in the fire path.
    if (reply.outcome !== 'fired') {
      throw new ApiError('api_error', undefined, { cause: new Error(`manual fire answered ${reply.outcome}`) });
    }
    return reply.run;
  };

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
 * 3. One transaction, under the deployment's row lock (db/record-fires.ts): the checks of step 1
 *    again (a pause that committed meanwhile wins), then the session, the run and
 *    `sessions.created` (or the failed run), `last_run_at` for a successful scheduled run, and
 *    for a scheduled run failing with a paused-reason kind, the pause with `deployments.paused`.
 *    If the deployment's revision moved since step 1, the references checked may be stale: the
 *    fire starts over. The fires of this replica that reach step 3 together share that
 *    transaction: each gets exactly the checks and writes it would get alone.
 *
 * Steps 1 and 3 go through the replica's fire batchers (`deps.fires`, start-deployments.ts),
 * which share one statement or transaction among the fires in progress at the same moment.
 */
async function fire(deps: DeploymentsDeps, ctx: ServedContext, request: Static<typeof FireDeploymentRequest>): Promise<FireDeploymentReply> {
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
      if (existing) return firedReply(existing);
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
  const { deployment: seen, run: recorded } = await deps.fires.reader.call({ tenant, id, scheduledAt });
  if (recorded) return firedReply(recorded);
  const early = fireRefusal(seen, id, scheduledAt);
  if (early) return early;

  const references = rowReferences(seen!);
  const verdict = await checkReferences(deps.bus, ctx, references);
  let error = verdict.ok ? null : referenceRunError(verdict.problem);
  const agent = error ? null : await agentSnapshot(deps, ctx, seen!);
  if (!error && !agent) error = { type: 'session_resource_not_found_error', message: `agent '${seen!.agentId}' version ${seen!.agentVersion} no longer exists` };
  const memoryStores = verdict.ok ? verdict.memoryStores : new Map();
  return deps.fires.writer.call({ tenant, id, seenRevision: seen!.revision, trigger, scheduledAt, error, agent, memoryStores });
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
