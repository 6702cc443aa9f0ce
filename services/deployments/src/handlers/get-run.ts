import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import { found } from '@shared/errors/api-error';
import type { deploymentRunSubjects } from '@shared/bus/subjects/deployments';
import { findRun } from '../db/runs';
import { deploymentRunNotFound } from '../domain/not-found';
import { presentDeploymentRun } from '../domain/present';
import type { DeploymentsDeps } from '../deps';

/** Another tenant's run is not found, like a missing one. */
export const getRun =
  (deps: DeploymentsDeps): Handler<typeof deploymentRunSubjects.get> =>
  async ({ deployment_run_id }, ctx) => {
    return presentDeploymentRun(found(await findRun(deps.db, tenantOf(ctx), deployment_run_id), () => deploymentRunNotFound(deployment_run_id)));
  };
