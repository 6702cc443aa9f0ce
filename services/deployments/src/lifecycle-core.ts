import type { CallContext } from '@shared/bus/call-context';
import { recordEvent } from '@shared/bus/outbox';
import type { EventType } from '@shared/bus/event';
import { ApiError, conflict, invalidRequest, notFound } from '@shared/errors/api-error';
import type { Deployment, DeploymentUpdateRequest } from '@shared/schema/deployment';
import { deploymentEvents, type DeploymentSnapshot } from '@shared/schema/deployment-events';
import type { Tenant } from '@shared/schema/tenant';
import {
  findDeployment,
  replaceDeploymentSecrets,
  updateDeploymentAtRevision,
  type Tx,
} from './db/deployment-queries';
import { outbox, type DeploymentRow } from './db/schema';
import { askAboutReferences, sealRepositoryTokens, tenantOf, type DeploymentsCoreDeps } from './deployments-core';
import { snapshotOf } from './domain/deployment-snapshot';
import { planDeploymentUpdate } from './domain/deployment-update';
import { toDeployment } from './domain/deployment-view';
import { checkModelRules, checkReferences, uniqueIds } from './domain/references';

/** An update whose row changed under it is re-planned against the new row this many times, then 409. */
const UPDATE_ATTEMPTS = 3;

const deploymentNotFound = (id: string) => notFound(`deployment '${id}' not found`);
const archivedRefusal = (id: string, what: string) => invalidRequest(`deployment '${id}' is archived and cannot be ${what}`);

/**
 * Get, update, pause, unpause, archive. Every change bumps `revision` and records the matching
 * deployment event (a whole snapshot) through the outbox in the transaction that makes it, so
 * the scheduler sees each change exactly as committed, in revision order.
 *
 * Pause, unpause and archive lock the row and need nothing from other services. Update asks
 * the catalog and the vaults service first, outside any transaction, so it writes under an
 * optimistic lock on `revision`: if the row moved meanwhile, the patch is planned again against
 * the new row (what running the two requests one after the other would have done) a few times,
 * then answered with 409.
 */
export function createLifecycleCore(deps: DeploymentsCoreDeps) {
  const { db, clock, bus, masterKeys } = deps;

  async function get(ctx: CallContext, id: string): Promise<Deployment> {
    const row = await findDeployment(db, tenantOf(ctx), id);
    if (!row) throw deploymentNotFound(id);
    return toDeployment(row, clock.now());
  }

  async function update(ctx: CallContext, id: string, request: DeploymentUpdateRequest): Promise<Deployment> {
    const tenant = tenantOf(ctx);
    for (let attempt = 1; ; attempt++) {
      const result = await tryUpdate(ctx, tenant, id, request);
      if (result) return result;
      if (attempt >= UPDATE_ATTEMPTS) {
        throw conflict(`deployment '${id}' was changed by a concurrent request; fetch it and retry`);
      }
    }
  }

  /** One attempt; null when the row's revision moved before the write. */
  async function tryUpdate(ctx: CallContext, tenant: Tenant, id: string, request: DeploymentUpdateRequest): Promise<Deployment | null> {
    const row = await findDeployment(db, tenant, id);
    if (!row) throw deploymentNotFound(id);
    if (row.archivedAt) throw archivedRefusal(id, 'updated');
    const plan = planDeploymentUpdate(row, request, deps.repositoryUrls);

    // A patch that names no reference and touches no model rule (name, description, metadata,
    // schedule, a cleared list) asks no other service, so it works while they are away.
    const asksOthers =
      plan.agent.requested || plan.environmentId !== null || plan.modelRules !== null ||
      plan.vaults.length + plan.files.length + plan.memoryStores.length > 0;
    const [catalogReply, vaultReply] = asksOthers
      ? await askAboutReferences(bus, ctx, {
          agent: { id: plan.agent.id, version: plan.agent.version },
          environment_id: plan.environmentId,
          file_ids: uniqueIds(plan.files),
          memory_store_ids: uniqueIds(plan.memoryStores),
          vault_ids: uniqueIds(plan.vaults),
        })
      : [{ agent: null, environment: null, files: [], memory_stores: [] }, { vaults: [] }];
    const agent = checkReferences(
      {
        agent: plan.agent,
        checkAgent: plan.agent.requested,
        environmentId: plan.environmentId,
        vaults: plan.vaults,
        files: plan.files,
        memoryStores: plan.memoryStores,
      },
      catalogReply,
      vaultReply,
    );
    if (plan.modelRules) checkModelRules(agent, plan.modelRules);

    const sealed = plan.tokens ? sealRepositoryTokens(masterKeys, id, plan.tokens) : null;
    const now = clock.now();
    const next: DeploymentRow = {
      ...row,
      ...plan.columns,
      agentVersion: plan.agent.requested ? agent.version : row.agentVersion,
      ...(sealed ? { dataKeyId: sealed.dataKey?.keyId ?? null, dataKeyWrapped: sealed.dataKey?.wrapped ?? null } : {}),
      revision: row.revision + 1,
      updatedAt: now,
    };
    const written = await db.transaction(async (tx) => {
      const { id: _id, organizationId: _o, workspaceId: _w, createdAt: _c, ...columns } = next;
      if (!(await updateDeploymentAtRevision(tx, id, row.revision, columns))) return false;
      if (sealed) await replaceDeploymentSecrets(tx, id, sealed.secrets);
      await recordEvent(tx, outbox, deploymentEvents.updated, tenant, snapshotOf(next), now);
      return true;
    });
    if (!written) return null;
    deps.relay?.poke();
    return toDeployment(next, now);
  }

  /**
   * Changes a locked row: `change` returns the new row, or null to leave it as it is (an
   * idempotent repeat), and names the event to record.
   */
  async function changeLocked(
    ctx: CallContext,
    id: string,
    change: (row: DeploymentRow, now: Date) => { row: DeploymentRow; event: EventType<typeof DeploymentSnapshot> } | null,
  ): Promise<Deployment> {
    const tenant = tenantOf(ctx);
    const now = clock.now();
    const { row, recorded } = await db.transaction(async (tx: Tx) => {
      const current = await findDeployment(tx, tenant, id, { lock: true });
      if (!current) throw deploymentNotFound(id);
      const changed = change(current, now);
      if (!changed) return { row: current, recorded: false };
      const next = { ...changed.row, revision: current.revision + 1, updatedAt: now };
      const { id: _id, organizationId: _o, workspaceId: _w, createdAt: _c, ...columns } = next;
      if (!(await updateDeploymentAtRevision(tx, id, current.revision, columns))) {
        // Impossible under the row lock; never write an event for a change that did not happen.
        throw new ApiError('api_error', undefined, { cause: new Error(`deployment ${id} changed under its row lock`) });
      }
      await recordEvent(tx, outbox, changed.event, tenant, snapshotOf(next), now);
      return { row: next, recorded: true };
    });
    if (recorded) deps.relay?.poke();
    return toDeployment(row, now);
  }

  /** Pausing a paused deployment keeps it as it is, reason included (it says why it stopped). */
  const pause = (ctx: CallContext, id: string) =>
    changeLocked(ctx, id, (row) => {
      if (row.archivedAt) throw archivedRefusal(id, 'paused');
      if (row.status === 'paused') return null;
      return { row: { ...row, status: 'paused', pausedReason: { type: 'manual' } }, event: deploymentEvents.paused };
    });

  /** Unpausing an active deployment changes nothing. Occurrences missed while paused never fire. */
  const unpause = (ctx: CallContext, id: string) =>
    changeLocked(ctx, id, (row) => {
      if (row.archivedAt) throw archivedRefusal(id, 'unpaused');
      if (row.status === 'active') return null;
      return { row: { ...row, status: 'active', pausedReason: null }, event: deploymentEvents.unpaused };
    });

  /**
   * One-way; archiving again returns the deployment as it is. An archived deployment reports
   * `active` with `archived_at` set, keeps `last_run_at`, lists no upcoming runs, never fires.
   */
  const archive = (ctx: CallContext, id: string) =>
    changeLocked(ctx, id, (row, now) => {
      if (row.archivedAt) return null;
      return { row: { ...row, status: 'active', pausedReason: null, archivedAt: now }, event: deploymentEvents.archived };
    });

  return { get, update, pause, unpause, archive };
}
export type LifecycleCore = ReturnType<typeof createLifecycleCore>;
