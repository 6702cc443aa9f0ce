import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { deploymentRunSubjects } from '@shared/bus/subjects/deployments';
import { notFound } from '@shared/errors/api-error';
import { findRun } from '../db/run-queries';
import { presentDeploymentRun } from '../domain/present';
import type { DeploymentsDeps } from '../service';

/** Another tenant's run is not found, like a missing one. */
export const getRun =
  (deps: DeploymentsDeps): Handler<typeof deploymentRunSubjects.get> =>
  async ({ deployment_run_id }, ctx) => {
    const row = await findRun(deps.db, tenantOf(ctx), deployment_run_id);
    if (!row) throw notFound(`deployment run '${deployment_run_id}' not found`);
    return presentDeploymentRun(row);
  };
