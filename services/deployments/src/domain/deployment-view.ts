import type { Deployment } from '@shared/schema/deployment';
import type { DeploymentRow } from '../db/schema';
import { upcomingRuns } from './schedule';

const iso = (d: Date) => d.toISOString();

/** A stored deployment as the API returns it; `upcoming_runs_at` is computed against `now`. */
export function toDeployment(row: DeploymentRow, now: Date): Deployment {
  const schedule =
    row.scheduleExpression !== null && row.scheduleTimezone !== null
      ? {
          type: 'cron' as const,
          expression: row.scheduleExpression,
          timezone: row.scheduleTimezone,
          last_run_at: row.lastRunAt ? iso(row.lastRunAt) : null,
          upcoming_runs_at: upcomingRuns(
            { expression: row.scheduleExpression, timezone: row.scheduleTimezone },
            now,
            row.archivedAt !== null,
          ),
        }
      : null;
  return {
    type: 'deployment',
    id: row.id,
    name: row.name,
    description: row.description,
    agent: { type: 'agent', id: row.agentId, version: row.agentVersion },
    environment_id: row.environmentId,
    vault_ids: row.vaultIds,
    initial_events: row.initialEvents,
    resources: row.resources,
    metadata: row.metadata,
    schedule,
    status: row.status,
    paused_reason: row.status === 'paused' ? row.pausedReason : null,
    ...(row.budget ? { budget: row.budget } : {}),
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
    archived_at: row.archivedAt ? iso(row.archivedAt) : null,
  };
}
