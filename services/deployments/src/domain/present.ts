import type { Deployment } from '@shared/schema/deployment';
import type { DeploymentSnapshot } from '@shared/schema/deployment-events';
import type { DeploymentRun } from '@shared/schema/deployment-run';
import type { Session } from '@shared/schema/session';
import type { DeploymentRow, DeploymentRunRow, SessionRow } from '../db/schema';
import { scheduleOf, upcomingRuns } from './schedule';

const iso = (d: Date) => d.toISOString();
const isoOrNull = (d: Date | null) => (d ? iso(d) : null);
const agentOf = (row: { agentId: string; agentVersion: number }) => ({ type: 'agent' as const, id: row.agentId, version: row.agentVersion });

/** A stored deployment as the API returns it; `upcoming_runs_at` is computed against `now`. */
export function presentDeployment(row: DeploymentRow, now: Date): Deployment {
  const schedule = scheduleOf(row);
  return {
    type: 'deployment',
    id: row.id,
    name: row.name,
    description: row.description,
    agent: agentOf(row),
    environment_id: row.environmentId,
    vault_ids: row.vaultIds,
    initial_events: row.initialEvents,
    resources: row.resources,
    metadata: row.metadata,
    schedule: schedule && {
      type: 'cron',
      ...schedule,
      last_run_at: isoOrNull(row.lastRunAt),
      upcoming_runs_at: upcomingRuns(schedule, now, row.archivedAt !== null),
    },
    status: row.status,
    paused_reason: row.status === 'paused' ? row.pausedReason : null,
    ...(row.budget ? { budget: row.budget } : {}),
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
    archived_at: isoOrNull(row.archivedAt),
  };
}

/** What every deployment event carries: the whole scheduling state at one revision. */
export function presentDeploymentSnapshot(row: DeploymentRow): DeploymentSnapshot {
  return {
    deployment_id: row.id,
    organization_id: row.organizationId,
    workspace_id: row.workspaceId,
    schedule: scheduleOf(row),
    status: row.status,
    archived: row.archivedAt !== null,
    revision: row.revision,
  };
}

export function presentDeploymentRun(row: DeploymentRunRow): DeploymentRun {
  return {
    type: 'deployment_run',
    id: row.id,
    deployment_id: row.deploymentId,
    agent: agentOf(row),
    trigger_context:
      row.triggerType === 'schedule' && row.scheduledAt
        ? { type: 'schedule', scheduled_at: iso(row.scheduledAt) }
        : { type: 'manual' },
    session_id: row.sessionId,
    error: row.errorType ? { type: row.errorType, message: row.errorMessage ?? '' } : null,
    created_at: iso(row.createdAt),
  };
}

/** `title`, `outcome_evaluations`, `stats` and `usage` in their empty state: no agent runs here. */
export function presentSession(row: SessionRow): Session {
  return {
    type: 'session',
    id: row.id,
    deployment_id: row.deploymentId,
    agent: agentOf(row),
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
    archived_at: isoOrNull(row.archivedAt),
  };
}
