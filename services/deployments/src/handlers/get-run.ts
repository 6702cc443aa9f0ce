import type { Handler } from '@shared/bus/bus-server';
import type { deploymentRunSubjects } from '@shared/bus/subjects/deployments';
import type { RunsCore } from '../runs-core';

type S = typeof deploymentRunSubjects.get;

export const getRun =
  (core: RunsCore): Handler<S> =>
  (request, ctx) =>
    core.getRun(ctx, request.deployment_run_id);
