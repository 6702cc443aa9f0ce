import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { deploymentRunSubjects } from '@shared/bus/subjects/deployments';
import { listRunPage } from '../db/runs';
import { presentDeploymentRun } from '../domain/present';
import type { DeploymentsDeps } from '../deps';

export const listRuns =
  (deps: DeploymentsDeps): Handler<typeof deploymentRunSubjects.list> =>
  async (request, ctx) =>
    listRunPage(deps.db, tenantOf(ctx), request, presentDeploymentRun);
