import { DeploymentListReply, DeploymentListRequest } from '../../schema/deployment';
import { defineSubject } from '../subject';

const SERVICE = 'deployments';

export const deploymentSubjects = {
  list: defineSubject(SERVICE, 'deployments.list', DeploymentListRequest, DeploymentListReply),
};
