import type { DeploymentRow } from '../../services/deployments/src/db/schema';

/** A stored deployment with every column set, for rules that read rows; `over` changes some. */
export function deploymentRow(over: Partial<DeploymentRow> = {}): DeploymentRow {
  const at = new Date('2026-06-01T08:00:00.000Z');
  return {
    id: 'depl_1',
    organizationId: 'org_1',
    workspaceId: 'ws_1',
    name: 'nightly',
    description: null,
    agentId: 'agent_a',
    agentVersion: 2,
    environmentId: 'env_e',
    vaultIds: [],
    initialEvents: [{ type: 'user.message', content: [{ type: 'text', text: 'go' }] }],
    resources: [],
    metadata: {},
    scheduleExpression: null,
    scheduleTimezone: null,
    lastRunAt: null,
    status: 'active',
    pausedReason: null,
    budget: null,
    revision: 1,
    dataKeyId: null,
    dataKeyWrapped: null,
    createdAt: at,
    updatedAt: at,
    archivedAt: null,
    ...over,
  };
}
