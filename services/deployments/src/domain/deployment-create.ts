import { newRowColumns } from '@shared/db/columns';
import type { DeploymentCreateRequest } from '@shared/schema/deployment';
import type { Tenant } from '@shared/schema/tenant';
import type { DeploymentRow } from '../db/schema';
import { checkSystemMessagePlacement, eventFileReferences, resolveInitialEvents } from './initial-events';
import type { ReferenceSet, ResolvedAgent } from './references';
import { resolveResources, type RepositoryToken, type RepositoryUrlRules } from './resources';
import { compileRequestedSchedule } from './schedule';

export interface CreatePlan {
  /** The new row's columns that need nothing from other services. */
  columns: Pick<DeploymentRow, 'initialEvents' | 'resources' | 'scheduleExpression' | 'scheduleTimezone'>;
  references: ReferenceSet;
  tokens: RepositoryToken[];
}

/**
 * The checks of a creation that need nothing but the request, cheapest first (schedule, events,
 * resources), each throwing the 400 that names its field; and what to ask other services about.
 */
export function planDeploymentCreate(request: DeploymentCreateRequest, repositoryUrls?: RepositoryUrlRules): CreatePlan {
  const schedule = request.schedule ? compileRequestedSchedule(request.schedule) : null;
  const systemMessageAt = checkSystemMessagePlacement(request.initial_events);
  const resources = resolveResources(request.resources ?? [], repositoryUrls);
  const initialEvents = resolveInitialEvents(request.initial_events);
  const agent =
    typeof request.agent === 'string'
      ? { id: request.agent, version: null, check: true }
      : { id: request.agent.id, version: request.agent.version ?? null, check: true };
  return {
    columns: {
      initialEvents,
      resources: resources.configs,
      scheduleExpression: schedule?.expression ?? null,
      scheduleTimezone: schedule?.timezone ?? null,
    },
    references: {
      agent,
      environment: { id: request.environment_id, path: 'environment_id' },
      vaults: (request.vault_ids ?? []).map((id, i) => ({ id, path: `vault_ids.${i}` })),
      files: [...resources.files, ...eventFileReferences(request.initial_events)],
      memoryStores: resources.memoryStores,
      modelRules: { systemMessageAt, hasBudget: Boolean(request.budget) },
    },
    tokens: resources.tokens,
  };
}

/** The row a creation stores: active, revision 1, the agent version the catalog resolved. */
export function newDeploymentRow(
  id: string,
  tenant: Pick<Tenant, 'organization_id' | 'workspace_id'>,
  request: DeploymentCreateRequest,
  plan: CreatePlan,
  agent: ResolvedAgent,
  dataKey: { keyId: string; wrapped: string } | null,
  now: Date,
): DeploymentRow {
  return {
    ...newRowColumns(id, tenant, now),
    name: request.name,
    description: request.description ?? null,
    agentId: agent.id,
    agentVersion: agent.version,
    environmentId: request.environment_id,
    vaultIds: request.vault_ids ?? [],
    ...plan.columns,
    metadata: request.metadata ?? {},
    lastRunAt: null,
    status: 'active',
    pausedReason: null,
    budget: request.budget ?? null,
    revision: 1,
    dataKeyId: dataKey?.keyId ?? null,
    dataKeyWrapped: dataKey?.wrapped ?? null,
  };
}
