import {
  DeploymentRun,
  DeploymentRunIdRequest,
  DeploymentRunListReply,
  DeploymentRunListRequest,
  FireDeploymentReply,
  FireDeploymentRequest,
} from '../../schema/deployment-run';
import {
  Deployment,
  DeploymentCreateRequest,
  DeploymentIdRequest,
  DeploymentListReply,
  DeploymentListRequest,
  UpdateDeploymentRequest,
} from '../../schema/deployment';
import { resourceOperations } from '../resource-operations';
import { defineSubjects } from '../subject';

const SERVICE = 'deployments';

/**
 * `create` makes a deployment in the caller's tenant (from the call context) and replies with it
 * as returned; `update` has patch semantics per field (see DeploymentUpdateRequest), 409 when a
 * concurrent change wins.
 */
export const deploymentSubjects = defineSubjects(SERVICE, 'deployments', {
  ...resourceOperations({ resource: Deployment, id: DeploymentIdRequest, create: DeploymentCreateRequest, list: [DeploymentListRequest, DeploymentListReply], update: UpdateDeploymentRequest }),
  pause: [DeploymentIdRequest, Deployment],
  unpause: [DeploymentIdRequest, Deployment],
  /** The manual `run` route: fires with a manual trigger, which is never skipped. */
  run: [DeploymentIdRequest, DeploymentRun],
  /**
   * Fires a deployment for any trigger, scheduled ones included; only the scheduler may call it,
   * so no other identity can forge a scheduled occurrence.
   */
  fire: [FireDeploymentRequest, FireDeploymentReply, { callers: ['scheduler'] }],
});

/** Runs are recorded by the fire path and only read from outside. */
export const deploymentRunSubjects = defineSubjects(SERVICE, 'deployment_runs', {
  list: [DeploymentRunListRequest, DeploymentRunListReply],
  get: [DeploymentRunIdRequest, DeploymentRun],
});
