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
import { defineSubject } from '../subject';

const SERVICE = 'deployments';

export const deploymentSubjects = {
  /** Creates a deployment in the caller's tenant (from the call context); replies with it as returned. */
  create: defineSubject(SERVICE, 'deployments.create', DeploymentCreateRequest, Deployment),
  list: defineSubject(SERVICE, 'deployments.list', DeploymentListRequest, DeploymentListReply),
  get: defineSubject(SERVICE, 'deployments.get', DeploymentIdRequest, Deployment),
  /** Patch semantics per field (see DeploymentUpdateRequest); 409 when a concurrent change wins. */
  update: defineSubject(SERVICE, 'deployments.update', UpdateDeploymentRequest, Deployment),
  pause: defineSubject(SERVICE, 'deployments.pause', DeploymentIdRequest, Deployment),
  unpause: defineSubject(SERVICE, 'deployments.unpause', DeploymentIdRequest, Deployment),
  archive: defineSubject(SERVICE, 'deployments.archive', DeploymentIdRequest, Deployment),
  /** The manual `run` route: fires with a manual trigger, which is never skipped. */
  run: defineSubject(SERVICE, 'deployments.run', DeploymentIdRequest, DeploymentRun),
  /**
   * Fires a deployment for any trigger, scheduled ones included; only the scheduler may call it,
   * so no other identity can forge a scheduled occurrence.
   */
  fire: defineSubject(SERVICE, 'deployments.fire', FireDeploymentRequest, FireDeploymentReply, { callers: ['scheduler'] }),
};

/** Runs are recorded by the fire path and only read from outside. */
export const deploymentRunSubjects = {
  list: defineSubject(SERVICE, 'deployment_runs.list', DeploymentRunListRequest, DeploymentRunListReply),
  get: defineSubject(SERVICE, 'deployment_runs.get', DeploymentRunIdRequest, DeploymentRun),
};
