import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import { found } from '@shared/errors/api-error';
import type { deploymentSubjects } from '@shared/bus/subjects/deployments';
import { changeDeploymentUnderLock } from '../db/deployments';
import { pauseChange } from '../domain/lifecycle';
import { deploymentNotFound } from '../domain/not-found';
import { presentDeployment } from '../domain/present';
import type { DeploymentsDeps } from '../deps';

/** Pauses a deployment: it stops firing until unpaused; pausing again changes nothing. */
export const pauseDeployment =
  (deps: DeploymentsDeps): Handler<typeof deploymentSubjects.pause> =>
  async ({ deployment_id }, ctx) => {
    const changed = found(await changeDeploymentUnderLock(deps, tenantOf(ctx), deployment_id, pauseChange), () => deploymentNotFound(deployment_id));
    return presentDeployment(changed.row, changed.now);
  };
