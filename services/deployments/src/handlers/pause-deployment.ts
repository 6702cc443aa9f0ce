import type { Handler } from '@shared/bus/bus-server';
import type { deploymentSubjects } from '@shared/bus/subjects/deployments';
import { pauseChange } from '../domain/lifecycle';
import type { DeploymentsDeps } from '../service';
import { changeLockedDeployment } from './change-locked-deployment';

/** Pauses a deployment: it stops firing until unpaused; pausing again changes nothing. */
export const pauseDeployment =
  (deps: DeploymentsDeps): Handler<typeof deploymentSubjects.pause> =>
  ({ deployment_id }, ctx) =>
    changeLockedDeployment(deps, ctx, deployment_id, pauseChange);
