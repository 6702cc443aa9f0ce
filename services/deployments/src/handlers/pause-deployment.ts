import type { Handler } from '@shared/bus/bus-server';
import type { deploymentSubjects } from '@shared/bus/subjects/deployments';
import type { LifecycleCore } from '../lifecycle-core';

type S = typeof deploymentSubjects.pause;

export const pauseDeployment =
  (core: LifecycleCore): Handler<S> =>
  (request, ctx) =>
    core.pause(ctx, request.deployment_id);
