import { FireDeploymentReply, FireDeploymentRequest } from '../../schema/deployment-run';
import { Deployment, DeploymentCreateRequest, DeploymentListReply, DeploymentListRequest } from '../../schema/deployment';
import { defineSubject } from '../subject';

const SERVICE = 'deployments';

export const deploymentSubjects = {
  /** Creates a deployment in the caller's tenant (from the call context); replies with it as returned. */
  create: defineSubject(SERVICE, 'deployments.create', DeploymentCreateRequest, Deployment),
  list: defineSubject(SERVICE, 'deployments.list', DeploymentListRequest, DeploymentListReply),
  /** Fires a deployment for a trigger; the scheduler and the manual `run` route both use it. */
  fire: defineSubject(SERVICE, 'deployments.fire', FireDeploymentRequest, FireDeploymentReply),
};
