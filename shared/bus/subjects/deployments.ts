import * as deploymentRun from '../../schema/deployment-run';
import * as deployment from '../../schema/deployment';
import { resourceOperations } from '../resource-operations';
import { defineSubjects } from '../subject';

const SERVICE = 'deployments';

/**
 * `create` makes a deployment in the caller's tenant (from the call context) and replies with it
 * as returned; `update` has patch semantics per field (see DeploymentUpdateRequest), 409 when a
 * concurrent change wins.
 */
export const deploymentSubjects = defineSubjects(SERVICE, 'deployments', {
  ...resourceOperations({ resource: deployment.Deployment, id: deployment.DeploymentIdRequest, create: deployment.DeploymentCreateRequest, list: [deployment.DeploymentListRequest, deployment.DeploymentListReply], update: deployment.UpdateDeploymentRequest }),
  pause: [deployment.DeploymentIdRequest, deployment.Deployment],
  unpause: [deployment.DeploymentIdRequest, deployment.Deployment],
  /** The manual `run` route: fires with a manual trigger, which is never skipped. */
  run: [deployment.DeploymentIdRequest, deploymentRun.DeploymentRun],
  /**
   * Fires a deployment for any trigger, scheduled ones included; only the scheduler may call it,
   * so no other identity can forge a scheduled occurrence.
   */
  fire: [deploymentRun.FireDeploymentRequest, deploymentRun.FireDeploymentReply, { callers: ['scheduler'] }],
});

/** Runs are recorded by the fire path and only read from outside. */
export const deploymentRunSubjects = defineSubjects(SERVICE, 'deployment_runs', {
  list: [deploymentRun.DeploymentRunListRequest, deploymentRun.DeploymentRunListReply],
  get: [deploymentRun.DeploymentRunIdRequest, deploymentRun.DeploymentRun],
});
