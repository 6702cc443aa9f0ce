import { applyMetadataPatch } from '@shared/metadata/apply-metadata-patch';
import type { DeploymentUpdateRequest, InitialEventParams } from '@shared/schema/deployment';
import type { DeploymentRow } from '../db/schema';
import { checkSystemMessagePlacement, eventFileReferences, resolveInitialEvents } from './initial-events';
import type { ReferenceSet, ResolvedAgent } from './references';
import { resolveResources, type RepositoryToken, type RepositoryUrlRules } from './resources';
import { compileRequestedSchedule, scheduleOf } from './schedule';

/** Stored columns an update may change; the agent version is resolved by the catalog afterwards. */
export type UpdatedColumns = Pick<
  DeploymentRow,
  | 'name'
  | 'description'
  | 'agentId'
  | 'environmentId'
  | 'vaultIds'
  | 'initialEvents'
  | 'resources'
  | 'metadata'
  | 'scheduleExpression'
  | 'scheduleTimezone'
  | 'budget'
>;

export interface UpdatePlan {
  columns: UpdatedColumns;
  /**
   * What to ask the catalog and the vaults service about: the references the request names,
   * checked like at creation (unchanged ones are checked at every fire), and the kept agent for
   * its model only (`agent.check` false) when a model rule may have changed.
   */
  references: ReferenceSet;
  /** The replacement list's repository tokens; null when `resources` is kept. */
  tokens: RepositoryToken[] | null;
}

/**
 * The checks of an update that need nothing but the request and the stored row, and the row's
 * new columns, per the SDK's patch semantics (see DeploymentUpdateRequest). Throws the same 400s
 * creation does, naming the field.
 */
export function planDeploymentUpdate(
  row: DeploymentRow,
  update: DeploymentUpdateRequest,
  repositoryUrls?: RepositoryUrlRules,
): UpdatePlan {
  const metadata = applyMetadataPatch(row.metadata, update.metadata);
  const schedule =
    update.schedule === undefined ? scheduleOf(row) : update.schedule === null ? null : compileRequestedSchedule(update.schedule);
  const events: InitialEventParams[] = update.initial_events ?? row.initialEvents;
  const systemMessageAt = checkSystemMessagePlacement(events);
  const resources = update.resources === undefined ? null : resolveResources(update.resources ?? [], repositoryUrls);
  const budget = update.budget === undefined ? row.budget : update.budget;

  const agent =
    update.agent === undefined
      ? { id: row.agentId, version: row.agentVersion, check: false }
      : typeof update.agent === 'string'
        ? { id: update.agent, version: null, check: true }
        : { id: update.agent.id, version: update.agent.version ?? null, check: true };

  const rulesMayChange = update.agent !== undefined || update.initial_events !== undefined || (update.budget ?? null) !== null;
  return {
    columns: {
      name: update.name ?? row.name,
      description: update.description === undefined ? row.description : update.description || null,
      agentId: agent.id,
      environmentId: update.environment_id ?? row.environmentId,
      vaultIds: update.vault_ids === undefined ? row.vaultIds : (update.vault_ids ?? []),
      initialEvents: update.initial_events ? resolveInitialEvents(update.initial_events) : row.initialEvents,
      resources: resources ? resources.configs : row.resources,
      metadata,
      scheduleExpression: schedule?.expression ?? null,
      scheduleTimezone: schedule?.timezone ?? null,
      budget,
    },
    references: {
      agent,
      environment: update.environment_id ? { id: update.environment_id, path: 'environment_id' } : null,
      vaults: (update.vault_ids ?? []).map((id, i) => ({ id, path: `vault_ids.${i}` })),
      files: [...(resources?.files ?? []), ...(update.initial_events ? eventFileReferences(update.initial_events) : [])],
      memoryStores: resources?.memoryStores ?? [],
      modelRules: rulesMayChange ? { systemMessageAt, hasBudget: budget !== null } : null,
    },
    tokens: resources ? resources.tokens : null,
  };
}

/**
 * The row an update leaves: the planned columns, the agent version the catalog resolved (when
 * the agent was named), the new data key when tokens were sealed, the next revision.
 */
export function updatedRow(
  row: DeploymentRow,
  plan: UpdatePlan,
  agent: ResolvedAgent,
  dataKey: { keyId: string; wrapped: string } | null | undefined,
  now: Date,
): DeploymentRow {
  return {
    ...row,
    ...plan.columns,
    agentVersion: plan.references.agent.check ? agent.version : row.agentVersion,
    ...(dataKey !== undefined ? { dataKeyId: dataKey?.keyId ?? null, dataKeyWrapped: dataKey?.wrapped ?? null } : {}),
    revision: row.revision + 1,
    updatedAt: now,
  };
}
