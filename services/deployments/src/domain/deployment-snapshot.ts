import type { DeploymentSnapshot } from '@shared/schema/deployment-events';
import type { DeploymentRow } from '../db/schema';

/** What every deployment event carries: the whole scheduling state at one revision. */
export function snapshotOf(row: DeploymentRow): DeploymentSnapshot {
  return {
    deployment_id: row.id,
    organization_id: row.organizationId,
    workspace_id: row.workspaceId,
    schedule:
      row.scheduleExpression !== null && row.scheduleTimezone !== null
        ? { expression: row.scheduleExpression, timezone: row.scheduleTimezone }
        : null,
    status: row.status,
    archived: row.archivedAt !== null,
    revision: row.revision,
  };
}
