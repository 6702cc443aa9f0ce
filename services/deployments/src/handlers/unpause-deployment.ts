import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import { found } from '@shared/errors/api-error';
import type { deploymentSubjects } from '@shared/bus/subjects/deployments';
import { changeDeploymentUnderLock } from '../db/deployments';
import { unpauseChange } from '../domain/lifecycle';
import { deploymentNotFound } from '../domain/not-found';
import { presentDeployment } from '../domain/present';
import type { DeploymentsDeps } from '../deps';

/** Unpauses a deployment: it fires again from its next occurrence; unpausing an active one changes nothing. */
export const unpauseDeployment =
  (deps: DeploymentsDeps): Handler<typeof deploymentSubjects.unpause> =>
  async ({ deployment_id }, ctx) => {
    const changed = found(await changeDeploymentUnderLock(deps, tenantOf(ctx), deployment_id, unpauseChange), () => deploymentNotFound(deployment_id));
    return presentDeployment(changed.row, changed.now);
  };
