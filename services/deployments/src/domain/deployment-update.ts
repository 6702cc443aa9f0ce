import type { DeploymentUpdateRequest, InitialEventParams } from '@shared/schema/deployment';
import type { DeploymentRow } from '../db/schema';
import { checkSystemMessagePlacement, eventFileReferences, resolveInitialEvents } from './initial-events';
import { applyMetadataPatch } from '@shared/metadata/apply-metadata-patch';
import type { PlacedReference } from './references';
import { resolveResources, type RepositoryToken, type RepositoryUrlRules } from './resources';
import { compileRequestedSchedule } from './schedule';

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
  /** The agent to resolve: the requested one, or the current pin (asked about for its model only). */
  agent: { id: string; version: number | null; requested: boolean };
  /** References the request names, checked like at creation; unchanged ones are checked at every fire. */
  environmentId: string | null;
  vaults: PlacedReference[];
  files: PlacedReference[];
  memoryStores: PlacedReference[];
  /** The replacement list's repository tokens; null when `resources` is kept. */
  tokens: RepositoryToken[] | null;
  /** Model rules to re-check against the resulting agent; null when nothing they depend on changed. */
  modelRules: { systemMessageAt: number | undefined; hasBudget: boolean } | null;
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
    update.schedule === undefined
      ? row.scheduleExpression !== null && row.scheduleTimezone !== null
        ? { expression: row.scheduleExpression, timezone: row.scheduleTimezone }
        : null
      : update.schedule === null
        ? null
        : compileRequestedSchedule(update.schedule);
  const events: InitialEventParams[] = update.initial_events ?? row.initialEvents;
  const systemMessageAt = checkSystemMessagePlacement(events);
  const resources = update.resources === undefined ? null : resolveResources(update.resources ?? [], repositoryUrls);
  const budget = update.budget === undefined ? row.budget : update.budget;

  const agent =
    update.agent === undefined
      ? { id: row.agentId, version: row.agentVersion, requested: false }
      : typeof update.agent === 'string'
        ? { id: update.agent, version: null, requested: true }
        : { id: update.agent.id, version: update.agent.version ?? null, requested: true };

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
    agent,
    environmentId: update.environment_id ?? null,
    vaults: (update.vault_ids ?? []).map((id, i) => ({ id, path: `vault_ids.${i}` })),
    files: [...(resources?.files ?? []), ...(update.initial_events ? eventFileReferences(update.initial_events) : [])],
    memoryStores: resources?.memoryStores ?? [],
    tokens: resources ? resources.tokens : null,
    modelRules: rulesMayChange ? { systemMessageAt, hasBudget: budget !== null } : null,
  };
}
