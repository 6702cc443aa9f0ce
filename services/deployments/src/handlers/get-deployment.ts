import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import { found } from '@shared/errors/api-error';
import type { deploymentSubjects } from '@shared/bus/subjects/deployments';
import { findDeployment } from '../db/deployments';
import { deploymentNotFound } from '../domain/not-found';
import { presentDeployment } from '../domain/present';
import type { DeploymentsDeps } from '../deps';

export const getDeployment =
  (deps: DeploymentsDeps): Handler<typeof deploymentSubjects.get> =>
  async ({ deployment_id }, ctx) => {
    const row = found(await findDeployment(deps.db, tenantOf(ctx), deployment_id), () => deploymentNotFound(deployment_id));
    return presentDeployment(row, deps.clock.now());
  };
