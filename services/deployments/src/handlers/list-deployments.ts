import type { Handler } from '@shared/bus/bus-server';
import type { deploymentSubjects } from '@shared/bus/subjects/deployments';
import type { DeploymentsCore } from '../deployments-core';

type S = typeof deploymentSubjects.list;

export const listDeployments =
  (core: DeploymentsCore): Handler<S> =>
  (request, ctx) =>
    core.list(ctx, request);
