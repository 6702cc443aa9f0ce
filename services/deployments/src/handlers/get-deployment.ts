import type { Handler } from '@shared/bus/bus-server';
import type { deploymentSubjects } from '@shared/bus/subjects/deployments';
import type { LifecycleCore } from '../lifecycle-core';

type S = typeof deploymentSubjects.get;

export const getDeployment =
  (core: LifecycleCore): Handler<S> =>
  (request, ctx) =>
    core.get(ctx, request.deployment_id);
