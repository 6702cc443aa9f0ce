import type { DeploymentRun } from '@shared/schema/deployment-run';
import type { Session } from '@shared/schema/session';
import type { DeploymentRunRow, SessionRow } from '../db/schema';

const iso = (d: Date) => d.toISOString();

export function toDeploymentRun(row: DeploymentRunRow): DeploymentRun {
  return {
    type: 'deployment_run',
    id: row.id,
    deployment_id: row.deploymentId,
    agent: { type: 'agent', id: row.agentId, version: row.agentVersion },
    trigger_context:
      row.triggerType === 'schedule' && row.scheduledAt
        ? { type: 'schedule', scheduled_at: iso(row.scheduledAt) }
        : { type: 'manual' },
    session_id: row.sessionId,
    error: row.errorType ? { type: row.errorType, message: row.errorMessage ?? '' } : null,
    created_at: iso(row.createdAt),
  };
}

export function toSession(row: SessionRow): Session {
  return {
    type: 'session',
    id: row.id,
    deployment_id: row.deploymentId,
    agent: { type: 'agent', id: row.agentId, version: row.agentVersion },
    environment_id: row.environmentId,
    vault_ids: row.vaultIds,
    resources: row.resources,
    budget: row.budget,
    initial_events: row.initialEvents,
    status: row.status,
    metadata: row.metadata,
    title: null,
    outcome_evaluations: [],
    stats: {},
    usage: {},
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
    archived_at: row.archivedAt ? iso(row.archivedAt) : null,
  };
}
