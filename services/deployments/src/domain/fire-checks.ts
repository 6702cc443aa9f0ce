import type { RunError, TriggerContext } from '@shared/schema/deployment-run';
import { PAUSING_RUN_ERRORS } from '@shared/schema/deployment-run';
import type { CheckVaultsReply, ResolveReferencesReply } from '@shared/schema/references';
import type { DeploymentRow } from '../db/schema';
import { eventFileReferences } from './initial-events';
import { nextOccurrenceAfter } from './schedule';

export type SkipReason = 'paused' | 'archived' | 'not_found' | 'unscheduled';

/**
 * Whether a scheduled fire may go ahead. Answered from the deployments service's own row, not
 * the scheduler's copy, so a pause, archive or schedule change committed a moment ago wins over
 * a scheduler that has not seen its event yet. An occurrence the current schedule does not have
 * (the schedule changed since the scheduler planned it) is not fired either.
 */
export function scheduledFireRefusal(row: DeploymentRow | undefined, scheduledAt: Date): SkipReason | null {
  if (!row) return 'not_found';
  if (row.archivedAt) return 'archived';
  if (row.status === 'paused') return 'paused';
  if (row.scheduleExpression === null || row.scheduleTimezone === null) return 'unscheduled';
  const occurrence = nextOccurrenceAfter(
    { expression: row.scheduleExpression, timezone: row.scheduleTimezone },
    new Date(scheduledAt.getTime() - 1),
  );
  if (!occurrence || occurrence.getTime() !== scheduledAt.getTime()) return 'unscheduled';
  return null;
}

/** What a fire asks the catalog and the vaults service about: everything the deployment uses. */
export function fireReferences(row: DeploymentRow) {
  const files = [
    ...row.resources.flatMap((r) => (r.type === 'file' ? [r.file_id] : [])),
    ...eventFileReferences(row.initialEvents).map((r) => r.id),
  ];
  const memoryStores = row.resources.flatMap((r) => (r.type === 'memory_store' ? [r.memory_store_id] : []));
  return {
    agent: { id: row.agentId, version: row.agentVersion },
    environmentId: row.environmentId,
    vaultIds: [...new Set(row.vaultIds)],
    fileIds: [...new Set(files)],
    memoryStoreIds: [...new Set(memoryStores)],
  };
}

/**
 * The run error a fire records instead of a session, or null when every reference is usable.
 * Checked in the order creation checks them. Each kind maps to the interface's run error:
 * - agent archived: agent_archived_error; agent (version) gone: session_resource_not_found_error;
 * - environment archived / gone: environment_archived_error / environment_not_found_error;
 * - vault gone / archived: vault_not_found_error / vault_archived_error;
 * - a file gone (a file resource, a file rubric, an image or document block's file source):
 *   file_not_found_error;
 * - memory store archived: memory_store_archived_error; gone: session_resource_not_found_error;
 * - a rule of the agent's model no longer met (a budget without a list price, a system.message
 *   the model does not accept): unknown_error. The agent version is pinned, so only a change
 *   to the shipped model catalog can cause it; it pauses, as it will not mend by itself.
 * A reply that omits an id counts as gone (fail closed).
 */
export function fireRunError(
  row: DeploymentRow,
  catalog: ResolveReferencesReply,
  vaults: CheckVaultsReply,
): RunError | null {
  const refs = fireReferences(row);
  const agent = catalog.agent;
  if (!agent || agent.state === 'not_found' || agent.version === null) {
    return { type: 'session_resource_not_found_error', message: `agent '${refs.agent.id}' version ${refs.agent.version} no longer exists` };
  }
  if (agent.state === 'archived') return { type: 'agent_archived_error', message: `agent '${refs.agent.id}' is archived` };

  const environment = catalog.environment?.state ?? 'not_found';
  if (environment === 'archived') return { type: 'environment_archived_error', message: `environment '${row.environmentId}' is archived` };
  if (environment === 'not_found') return { type: 'environment_not_found_error', message: `environment '${row.environmentId}' no longer exists` };

  const vaultStates = new Map(vaults.vaults.map((v) => [v.id, v.state]));
  for (const id of refs.vaultIds) {
    const state = vaultStates.get(id) ?? 'not_found';
    if (state === 'not_found') return { type: 'vault_not_found_error', message: `vault '${id}' no longer exists` };
    if (state === 'archived') return { type: 'vault_archived_error', message: `vault '${id}' is archived` };
  }
  const fileStates = new Map(catalog.files.map((f) => [f.id, f.state]));
  for (const id of refs.fileIds) {
    if ((fileStates.get(id) ?? 'not_found') !== 'ok') return { type: 'file_not_found_error', message: `file '${id}' no longer exists` };
  }
  const storeStates = new Map(catalog.memory_stores.map((m) => [m.id, m.state]));
  for (const id of refs.memoryStoreIds) {
    const state = storeStates.get(id) ?? 'not_found';
    if (state === 'archived') return { type: 'memory_store_archived_error', message: `memory store '${id}' is archived` };
    if (state === 'not_found') return { type: 'session_resource_not_found_error', message: `memory store '${id}' no longer exists` };
  }

  const model = agent.model;
  const modelName = model ? `model '${model.id}'` : "the agent's model";
  if (row.budget && !model?.list_price) {
    return { type: 'unknown_error', message: `${modelName} has no public list price, so the deployment's budget cannot be applied` };
  }
  if (row.initialEvents.some((e) => e.type === 'system.message') && !model?.supports_system_messages) {
    return { type: 'unknown_error', message: `${modelName} does not accept the deployment's system.message event` };
  }
  return null;
}

/**
 * Only a scheduled fire pauses its deployment, and only for the interface's paused-reason
 * kinds. A manual run reports its error to the caller, who is there to act on it; pausing the
 * schedule because of it would be a surprise.
 */
export function pausesDeployment(trigger: TriggerContext, error: RunError | null): error is RunError & { type: (typeof PAUSING_RUN_ERRORS)[number] } {
  return trigger.type === 'schedule' && error !== null && (PAUSING_RUN_ERRORS as readonly string[]).includes(error.type);
}
