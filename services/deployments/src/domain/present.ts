import type { Deployment } from '@shared/schema/deployment';
import type { DeploymentSnapshot } from '@shared/schema/deployment-events';
import type { DeploymentRun } from '@shared/schema/deployment-run';
import type { Session, SessionAgent } from '@shared/schema/session';
import type { DeploymentRow, DeploymentRunRow, SessionRow } from '../db/schema';
import { scheduleOf, upcomingRuns } from './schedule';
import { outcomeEvaluationsOf } from './outcome-evaluations';
import { materialised } from './session-resources';
import { presentUsage } from './session-usage';

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

/**
 * The status an archived session is reported with, whatever its log's last status was: the SDK
 * (1.10.0: "The API reports an archived session as `terminated`") reads it that way, and its
 * worker then runs no tools. Archiving appends no status event, so the row's own status (the
 * log's summary) is kept, and this is the one place that says how it is shown; the list's
 * `statuses` filter matches the same status (db/sessions.ts).
 */
export const ARCHIVED_SESSION_STATUS = 'terminated' as const;

export const sessionStatusOf = (row: Pick<SessionRow, 'status' | 'archivedAt'>): Session['status'] =>
  row.archivedAt ? ARCHIVED_SESSION_STATUS : row.status;

/**
 * A session as the API returns it, with its agent version's definition (the row's snapshot, or
 * for a session stored before snapshots were kept, the same immutable version asked of the
 * catalog). `usage` is what the runtime recorded (domain/session-usage.ts); `stats` stays at zero.
 * `outcome_evaluations`: one per `user.define_outcome` of its log (see outcomeEvaluationsOf).
 */
export function presentSession(row: SessionRow, agent: SessionAgent): Session {
  return {
    type: 'session',
    id: row.id,
    deployment_id: row.deploymentId,
    agent,
    environment_id: row.environmentId,
    vault_ids: row.vaultIds,
    initial_events: row.initialEvents,
    resources: materialised(row.id, row.createdAt, row.resources),
    metadata: row.metadata,
    budget: row.budget,
    status: sessionStatusOf(row),
    title: row.title,
    outcome_evaluations: row.outcomeEvaluations ?? outcomeEvaluationsOf(row.id, row.initialEvents, 1),
    stats: { active_seconds: 0 },
    usage: presentUsage(row.usage),
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
    archived_at: isoOrNull(row.archivedAt),
  };
}


