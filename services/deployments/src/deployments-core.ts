import type { BusClient } from '@shared/bus/bus-client';
import type { CallContext } from '@shared/bus/call-context';
import { recordEvent } from '@shared/bus/outbox';
import type { OutboxRelay } from '@shared/bus/outbox-relay';
import { referenceSubjects } from '@shared/bus/subjects/catalog';
import { vaultSubjects } from '@shared/bus/subjects/vaults';
import { generateDataKey, sealSecret, wrapDataKey } from '@shared/crypto/envelope';
import type { MasterKeyRing } from '@shared/crypto/master-key-ring';
import type { Database } from '@shared/db/connect';
import { ApiError, invalidRequest } from '@shared/errors/api-error';
import { isIdOf, newId } from '@shared/ids/ids';
import type { PagePosition } from '@shared/schema/common';
import {
  metadataKeyError,
  type Deployment,
  type DeploymentCreateRequest,
  type DeploymentListFilters,
} from '@shared/schema/deployment';
import { deploymentEvents } from '@shared/schema/deployment-events';
import type { CheckVaultsReply, ResolveReferencesReply, ResolveReferencesRequest } from '@shared/schema/references';
import type { Tenant } from '@shared/schema/tenant';
import type { Clock } from '@shared/time/clock';
import { insertDeployment, listDeploymentPage } from './db/deployment-queries';
import { outbox, type DeploymentRow } from './db/schema';
import { snapshotOf } from './domain/deployment-snapshot';
import { toDeployment } from './domain/deployment-view';
import { checkSystemMessagePlacement, eventFileReferences, resolveInitialEvents } from './domain/initial-events';
import { checkModelRules, checkReferences, uniqueIds } from './domain/references';
import { resolveResources, type RepositoryUrlRules } from './domain/resources';
import { compileRequestedSchedule } from './domain/schedule';

export interface DeploymentsCoreDeps {
  db: Database;
  clock: Clock;
  /** Asks the catalog and the vaults service about references. */
  bus: BusClient;
  masterKeys: MasterKeyRing;
  /** Which repository URL schemes are accepted (https only unless the setting allows http). */
  repositoryUrls?: RepositoryUrlRules;
  relay?: Pick<OutboxRelay, 'poke'>;
}

/** Where a repository token is sealed: bound to its deployment and its position in `resources`. */
export const repositoryTokenRecordId = (deploymentId: string, resourceIndex: number) =>
  `${deploymentId}/resources/${resourceIndex}`;

export function tenantOf(ctx: CallContext): Tenant {
  if (!ctx.tenant) throw new ApiError('authentication_error');
  return ctx.tenant;
}

/**
 * Asks the catalog and the vaults service about references, one request each, in parallel
 * (the vaults service only when there are vaults). Their bus errors propagate as they are.
 * An id not in the exact form of its kind (`env_… ` with a trailing space, another prefix, the
 * wrong case) names nothing: it is not asked about, and `checkReferences` reports it missing,
 * as it does every id a reply leaves out. So no such id reaches a database comparison, where a
 * PAD SPACE collation would match `'env_… '` to `'env_…'`.
 */
export function askAboutReferences(
  bus: BusClient,
  ctx: CallContext,
  request: ResolveReferencesRequest & { vault_ids: string[] },
): Promise<[ResolveReferencesReply, CheckVaultsReply]> {
  const catalogRequest: ResolveReferencesRequest = {
    agent: request.agent && isIdOf('agent', request.agent.id) ? request.agent : null,
    environment_id: request.environment_id !== null && isIdOf('environment', request.environment_id) ? request.environment_id : null,
    file_ids: request.file_ids.filter((id) => isIdOf('file', id)),
    memory_store_ids: request.memory_store_ids.filter((id) => isIdOf('memoryStore', id)),
  };
  const vault_ids = request.vault_ids.filter((id) => isIdOf('vault', id));
  return Promise.all([
    bus.call(referenceSubjects.resolve, ctx, catalogRequest),
    vault_ids.length === 0
      ? Promise.resolve<CheckVaultsReply>({ vaults: [] })
      : bus.call(vaultSubjects.check, ctx, { vault_ids }),
  ]);
}

/**
 * Seals write-only repository tokens under a fresh data key of this deployment, each bound to
 * its position in `resources`. No tokens: no key (the deployment holds no secret).
 */
export function sealRepositoryTokens(
  masterKeys: MasterKeyRing,
  deploymentId: string,
  tokens: Array<{ index: number; token: string }>,
): { dataKey: { keyId: string; wrapped: string } | null; secrets: Array<{ resourceIndex: number; sealed: string }> } {
  if (tokens.length === 0) return { dataKey: null, secrets: [] };
  const key = generateDataKey();
  try {
    return {
      dataKey: wrapDataKey(masterKeys, key, deploymentId),
      secrets: tokens.map((t) => ({
        resourceIndex: t.index,
        sealed: sealSecret(key, t.token, repositoryTokenRecordId(deploymentId, t.index)),
      })),
    };
  } finally {
    key.fill(0);
  }
}

/**
 * The deployments service's core: creation and listing (the lifecycle, the fire path and the
 * runs and sessions reads have their own cores beside this one). Built from its dependencies so tests
 * and the process wire it the same way; the bus handlers are thin adapters over it.
 */
export function createDeploymentsCore(deps: DeploymentsCoreDeps) {
  const { db, clock, bus, masterKeys } = deps;

  async function create(ctx: CallContext, request: DeploymentCreateRequest): Promise<Deployment> {
    const tenant = tenantOf(ctx);

    // Rules that need nothing but the request, cheapest first.
    const metadataError = metadataKeyError(request.metadata);
    if (metadataError) throw invalidRequest(metadataError);
    const schedule = request.schedule ? compileRequestedSchedule(request.schedule) : null;
    const systemMessageAt = checkSystemMessagePlacement(request.initial_events);
    const resources = resolveResources(request.resources ?? [], deps.repositoryUrls);
    const initialEvents = resolveInitialEvents(request.initial_events);

    // References, asked of their owners in one request each, in parallel.
    const agent =
      typeof request.agent === 'string'
        ? { id: request.agent, version: null }
        : { id: request.agent.id, version: request.agent.version ?? null };
    const vaults = (request.vault_ids ?? []).map((id, i) => ({ id, path: `vault_ids.${i}` }));
    const files = [...resources.files, ...eventFileReferences(request.initial_events)];
    const memoryStores = resources.memoryStores;
    const [catalogReply, vaultReply] = await askAboutReferences(bus, ctx, {
      agent,
      environment_id: request.environment_id,
      file_ids: uniqueIds(files),
      memory_store_ids: uniqueIds(memoryStores),
      vault_ids: uniqueIds(vaults),
    });
    const resolvedAgent = checkReferences(
      { agent, environmentId: request.environment_id, vaults, files, memoryStores },
      catalogReply,
      vaultReply,
    );
    checkModelRules(resolvedAgent, { systemMessageAt, hasBudget: Boolean(request.budget) });

    // Write-only tokens: sealed under this deployment's own data key, never stored in clear.
    const id = newId('deployment');
    const { dataKey, secrets } = sealRepositoryTokens(masterKeys, id, resources.tokens);

    const now = clock.now();
    const row: DeploymentRow = {
      id,
      organizationId: tenant.organization_id,
      workspaceId: tenant.workspace_id,
      name: request.name,
      description: request.description ?? null,
      agentId: resolvedAgent.id,
      agentVersion: resolvedAgent.version,
      environmentId: request.environment_id,
      vaultIds: request.vault_ids ?? [],
      initialEvents,
      resources: resources.configs,
      metadata: request.metadata ?? {},
      scheduleExpression: schedule?.expression ?? null,
      scheduleTimezone: schedule?.timezone ?? null,
      lastRunAt: null,
      status: 'active',
      pausedReason: null,
      budget: request.budget ?? null,
      revision: 1,
      dataKeyId: dataKey?.keyId ?? null,
      dataKeyWrapped: dataKey?.wrapped ?? null,
      createdAt: now,
      updatedAt: now,
      archivedAt: null,
    };
    await db.transaction(async (tx) => {
      await insertDeployment(tx, row, secrets);
      await recordEvent(tx, outbox, deploymentEvents.created, tenant, snapshotOf(row), now);
    });
    deps.relay?.poke();
    return toDeployment(row, now);
  }

  async function list(
    ctx: CallContext,
    request: { filters: DeploymentListFilters; limit: number; after: PagePosition | null },
  ): Promise<{ data: Deployment[]; next: PagePosition | null }> {
    const tenant = tenantOf(ctx);
    const now = clock.now();
    return listDeploymentPage(db, tenant, request.filters, request.limit, request.after, (row) => toDeployment(row, now));
  }

  return { create, list };
}
export type DeploymentsCore = ReturnType<typeof createDeploymentsCore>;
