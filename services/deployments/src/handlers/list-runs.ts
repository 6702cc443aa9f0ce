import type { Handler } from '@shared/bus/bus-server';
import type { deploymentRunSubjects } from '@shared/bus/subjects/deployments';
import type { RunsCore } from '../runs-core';

type S = typeof deploymentRunSubjects.list;

export const listRuns =
  (core: RunsCore): Handler<S> =>
  (request, ctx) =>
    core.listRuns(ctx, request);
