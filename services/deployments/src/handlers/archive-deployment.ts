import type { Handler } from '@shared/bus/bus-server';
import type { deploymentSubjects } from '@shared/bus/subjects/deployments';
import type { LifecycleCore } from '../lifecycle-core';

type S = typeof deploymentSubjects.archive;

export const archiveDeployment =
  (core: LifecycleCore): Handler<S> =>
  (request, ctx) =>
    core.archive(ctx, request.deployment_id);
