import { FireDeploymentReply, FireDeploymentRequest } from '../../schema/deployment-run';
import { DeploymentListReply, DeploymentListRequest } from '../../schema/deployment';
import { defineSubject } from '../subject';

const SERVICE = 'deployments';

export const deploymentSubjects = {
  list: defineSubject(SERVICE, 'deployments.list', DeploymentListRequest, DeploymentListReply),
  /** Fires a deployment for a trigger; the scheduler and the manual `run` route both use it. */
  fire: defineSubject(SERVICE, 'deployments.fire', FireDeploymentRequest, FireDeploymentReply),
};
