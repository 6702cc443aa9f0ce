import { retryTransient } from '@shared/db/retry-transient';
import type { CallContext } from '@shared/bus/call-context';
import { recordEvent } from '@shared/bus/outbox';
import { conflict, invalidRequest, notFound } from '@shared/errors/api-error';
import { newId } from '@shared/ids/ids';
import { deploymentEvents } from '@shared/schema/deployment-events';
import type { FireDeploymentReply, TriggerContext } from '@shared/schema/deployment-run';
import { sessionEvents } from '@shared/schema/session';
import type { Tenant } from '@shared/schema/tenant';
import { findDeployment, setLastRunAt, updateDeploymentAtRevision, type Tx } from './db/deployment-queries';
import { findRunForOccurrence, insertRun, isDuplicateKey } from './db/run-queries';
import { insertSession } from './db/session-queries';
import { outbox, type DeploymentRow, type DeploymentRunRow } from './db/schema';
import { askAboutReferences, tenantOf, type DeploymentsCoreDeps } from './deployments-core';
import { snapshotOf } from './domain/deployment-snapshot';
import { fireReferences, fireRunError, pausesDeployment, scheduledFireRefusal } from './domain/fire-checks';
import { toDeploymentRun } from './domain/run-view';

/** A fire whose deployment changed while its references were being checked starts over, this many times. */
const FIRE_ATTEMPTS = 3;

const fired = (run: DeploymentRunRow): FireDeploymentReply => ({ outcome: 'fired', run: toDeploymentRun(run) });

/**
 * The fire path, for the scheduler (schedule triggers) and the `run` route (manual triggers).
 *
 * 1. Scheduled: the run already recorded for (deployment, scheduled_at) is the answer, whatever
 *    happened since (idempotency; a UNIQUE key on the runs table backs it). Otherwise the
 *    deployment must still fire on schedule by its own row (not paused, archived, gone or
 *    unscheduled), else `skipped`. Manual: the deployment must exist (404) and not be archived
 *    (400); paused is fine.
 * 2. Every reference is re-checked with its owner. A bus failure (timeout, no responders) is not
 *    a run error: it propagates, nothing is recorded, and the scheduler retries the occurrence.
 * 3. One transaction, under the deployment's row lock: the checks of step 1 again (a pause that
 *    committed meanwhile wins), then the session, the run and `sessions.created` (or the failed
 *    run), `last_run_at` for a successful scheduled run, and for a scheduled run failing with a
 *    paused-reason kind, the pause with `deployments.paused`. If the deployment's revision moved
 *    since step 1, the references checked may be stale: the fire starts over.
 */
export function createFireCore(deps: DeploymentsCoreDeps) {
  const { db, clock, bus } = deps;

  async function fire(ctx: CallContext, request: { deployment_id: string; trigger: TriggerContext }): Promise<FireDeploymentReply> {
    const tenant = tenantOf(ctx);
    const scheduledAt = request.trigger.type === 'schedule' ? new Date(request.trigger.scheduled_at) : null;
    if (scheduledAt && Number.isNaN(scheduledAt.getTime())) throw invalidRequest('trigger.scheduled_at: must be a timestamp');
    for (let attempt = 1; ; attempt++) {
      try {
        const reply = await tryFire(ctx, tenant, request.deployment_id, request.trigger, scheduledAt);
        if (reply) return reply;
      } catch (err) {
        // Two fires of one occurrence both got past the lock-free checks; the key kept one run.
        if (!scheduledAt || !isDuplicateKey(err)) throw err;
        const existing = await findRunForOccurrence(db, request.deployment_id, scheduledAt);
        if (existing) return fired(existing);
        throw err;
      }
      if (attempt >= FIRE_ATTEMPTS) {
        throw conflict(`deployment '${request.deployment_id}' kept changing while it was being fired; try again`);
      }
    }
  }

  /** Null when the deployment changed under the fire (start over). */
  async function tryFire(
    ctx: CallContext,
    tenant: Tenant,
    id: string,
    trigger: TriggerContext,
    scheduledAt: Date | null,
  ): Promise<FireDeploymentReply | null> {
    const row = await findDeployment(db, tenant, id);
    const early = await refusalOrExisting(db, row, id, scheduledAt);
    if (early) return early;
    const seen = row!;

    const refs = fireReferences(seen);
    const [catalogReply, vaultReply] = await askAboutReferences(bus, ctx, {
      agent: refs.agent,
      environment_id: refs.environmentId,
      file_ids: refs.fileIds,
      memory_store_ids: refs.memoryStoreIds,
      vault_ids: refs.vaultIds,
    });
    const error = fireRunError(seen, catalogReply, vaultReply);

    const outcome = await retryTransient(() =>
      db.transaction(async (tx) => {
        const current = await findDeployment(tx, tenant, id, { lock: true });
        const late = await refusalOrExisting(tx, current, id, scheduledAt);
        if (late) return { reply: late, recorded: false };
        if (current!.revision !== seen.revision) return null;
        const run = await recordRun(tx, current!, trigger, scheduledAt, error);
        return { reply: fired(run), recorded: true };
      }),
    );
    if (outcome?.recorded) deps.relay?.poke();
    return outcome ? outcome.reply : null;
  }

  /** Step 1's answer when it ends the fire: the existing run, a skip, or the manual run's error. */
  async function refusalOrExisting(
    reader: Parameters<typeof findRunForOccurrence>[0],
    row: DeploymentRow | undefined,
    id: string,
    scheduledAt: Date | null,
  ): Promise<FireDeploymentReply | undefined> {
    if (scheduledAt) {
      const existing = row ? await findRunForOccurrence(reader, id, scheduledAt) : undefined;
      if (existing) return fired(existing);
      const reason = scheduledFireRefusal(row, scheduledAt);
      return reason ? { outcome: 'skipped', reason } : undefined;
    }
    if (!row) throw notFound(`deployment '${id}' not found`);
    if (row.archivedAt) throw invalidRequest(`deployment '${id}' is archived and cannot be run`);
    return undefined;
  }

  async function recordRun(
    tx: Tx,
    row: DeploymentRow,
    trigger: TriggerContext,
    scheduledAt: Date | null,
    error: ReturnType<typeof fireRunError>,
  ): Promise<DeploymentRunRow> {
    const now = clock.now();
    const tenant = { organization_id: row.organizationId, workspace_id: row.workspaceId };
    const sessionId = error ? null : newId('session');
    const run: DeploymentRunRow = {
      id: newId('deploymentRun'),
      organizationId: row.organizationId,
      workspaceId: row.workspaceId,
      deploymentId: row.id,
      agentId: row.agentId,
      agentVersion: row.agentVersion,
      triggerType: trigger.type,
      scheduledAt,
      sessionId,
      errorType: error?.type ?? null,
      errorMessage: error?.message ?? null,
      createdAt: now,
    };

    if (sessionId) {
      // The session is the deployment as it stands, budget copied: later changes never reach it.
      await insertSession(tx, {
        id: sessionId,
        organizationId: row.organizationId,
        workspaceId: row.workspaceId,
        deploymentId: row.id,
        agentId: row.agentId,
        agentVersion: row.agentVersion,
        environmentId: row.environmentId,
        vaultIds: row.vaultIds,
        resources: row.resources,
        budget: row.budget,
        initialEvents: row.initialEvents,
        status: 'idle',
        metadata: row.metadata,
        createdAt: now,
        updatedAt: now,
        archivedAt: null,
      });
    }
    await insertRun(tx, run);
    if (sessionId) {
      await recordEvent(
        tx,
        outbox,
        sessionEvents.created,
        tenant,
        {
          session_id: sessionId,
          deployment_id: row.id,
          deployment_run_id: run.id,
          organization_id: row.organizationId,
          workspace_id: row.workspaceId,
          agent: { type: 'agent', id: row.agentId, version: row.agentVersion },
          environment_id: row.environmentId,
          vault_ids: row.vaultIds,
        },
        now,
      );
      // Manual runs never move last_run_at (the SDK: "Manual runs do not update this").
      if (trigger.type === 'schedule') await setLastRunAt(tx, row.id, now);
    } else if (pausesDeployment(trigger, error)) {
      const paused: DeploymentRow = {
        ...row,
        status: 'paused',
        pausedReason: { type: 'error', error: { type: error.type } },
        revision: row.revision + 1,
        updatedAt: now,
      };
      await updateDeploymentAtRevision(tx, row.id, row.revision, {
        status: paused.status,
        pausedReason: paused.pausedReason,
        revision: paused.revision,
        updatedAt: now,
      });
      await recordEvent(tx, outbox, deploymentEvents.paused, tenant, snapshotOf(paused), now);
    }
    return run;
  }

  return { fire };
}
export type FireCore = ReturnType<typeof createFireCore>;
