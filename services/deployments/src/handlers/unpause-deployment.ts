import type { Handler } from '@shared/bus/bus-server';
import type { deploymentSubjects } from '@shared/bus/subjects/deployments';
import type { LifecycleCore } from '../lifecycle-core';

type S = typeof deploymentSubjects.unpause;

export const unpauseDeployment =
  (core: LifecycleCore): Handler<S> =>
  (request, ctx) =>
    core.unpause(ctx, request.deployment_id);
