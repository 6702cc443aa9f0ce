import { newId } from '@shared/ids/ids';
import type { DeploymentSnapshot } from '@shared/schema/deployment-events';

/** A deployment snapshot with sensible defaults; ids are unique per call. */
export function snapshot(overrides: Partial<DeploymentSnapshot> = {}): DeploymentSnapshot {
  return {
    // A real deployment id: the fire request refuses any other form (issue 10, item 7).
    deployment_id: newId('deployment'),
    organization_id: 'org_scheduler_test',
    workspace_id: 'wrkspc_scheduler_test',
    schedule: { expression: '* * * * *', timezone: 'UTC' },
    status: 'active',
    archived: false,
    revision: 1,
    ...overrides,
  };
}
