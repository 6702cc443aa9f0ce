import type { Handler } from '@shared/bus/bus-server';
import type { deploymentSubjects } from '@shared/bus/subjects/deployments';
import type { LifecycleCore } from '../lifecycle-core';

type S = typeof deploymentSubjects.update;

export const updateDeployment =
  (core: LifecycleCore): Handler<S> =>
  (request, ctx) =>
    core.update(ctx, request.deployment_id, request.update);
