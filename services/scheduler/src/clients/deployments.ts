import type { BusClient } from '@shared/bus/bus-client';
import { systemContext } from '@shared/bus/call-context';
import type { ReplyOf } from '@shared/bus/subject';
import { deploymentSubjects } from '@shared/bus/subjects/deployments';

/** The one call the scheduler makes to another service. */
export type DeploymentsBus = Pick<BusClient, 'call'>;

export interface ScheduledDeployment {
  deploymentId: string;
  organizationId: string;
  workspaceId: string;
}

/**
 * Asks the deployments service to fire one scheduled occurrence, acting for the deployment's
 * tenant under the scheduler's own key id. The deployments service records at most one run per
 * (deployment, scheduled_at), so sending the same occurrence again is harmless.
 */
export function fireScheduledOccurrence(
  bus: DeploymentsBus,
  requestId: string,
  deployment: ScheduledDeployment,
  scheduledAt: Date,
): Promise<ReplyOf<typeof deploymentSubjects.fire>> {
  const tenant = {
    organization_id: deployment.organizationId,
    workspace_id: deployment.workspaceId,
    scope: 'read_write',
    key_id: 'scheduler',
  } as const;
  return bus.call(deploymentSubjects.fire, systemContext(requestId, tenant), {
    deployment_id: deployment.deploymentId,
    trigger: { type: 'schedule', scheduled_at: scheduledAt.toISOString() },
  });
}
