import type { Handler } from '@shared/bus/bus-server';
import type { deploymentSubjects } from '@shared/bus/subjects/deployments';
import type { FireCore } from '../fire-core';

type S = typeof deploymentSubjects.fire;

export const fireDeployment =
  (core: FireCore): Handler<S> =>
  (request, ctx) =>
    core.fire(ctx, request);
