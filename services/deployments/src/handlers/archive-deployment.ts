import type { Handler } from '@shared/bus/bus-server';
import type { deploymentSubjects } from '@shared/bus/subjects/deployments';
import { archiveChange } from '../domain/lifecycle';
import type { DeploymentsDeps } from '../service';
import { changeLockedDeployment } from './change-locked-deployment';

/** Archives a deployment, one-way: it never fires again; archiving again changes nothing. */
export const archiveDeployment =
  (deps: DeploymentsDeps): Handler<typeof deploymentSubjects.archive> =>
  ({ deployment_id }, ctx) =>
    changeLockedDeployment(deps, ctx, deployment_id, archiveChange);
