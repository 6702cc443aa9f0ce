import type { Handler } from '@shared/bus/bus-server';
import type { deploymentSubjects } from '@shared/bus/subjects/deployments';
import type { DeploymentsCore } from '../deployments-core';

type S = typeof deploymentSubjects.create;

export const createDeployment =
  (core: DeploymentsCore): Handler<S> =>
  (request, ctx) =>
    core.create(ctx, request);
