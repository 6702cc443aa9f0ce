import type { Handler } from '@shared/bus/bus-server';
import type { deploymentSubjects } from '@shared/bus/subjects/deployments';
import { unpauseChange } from '../domain/lifecycle';
import type { DeploymentsDeps } from '../service';
import { changeLockedDeployment } from './change-locked-deployment';

/** Unpauses a deployment: it fires again from its next occurrence; unpausing an active one changes nothing. */
export const unpauseDeployment =
  (deps: DeploymentsDeps): Handler<typeof deploymentSubjects.unpause> =>
  ({ deployment_id }, ctx) =>
    changeLockedDeployment(deps, ctx, deployment_id, unpauseChange);
