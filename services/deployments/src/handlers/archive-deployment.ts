import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import { found } from '@shared/errors/api-error';
import type { deploymentSubjects } from '@shared/bus/subjects/deployments';
import { changeDeploymentUnderLock } from '../db/deployments';
import { archiveChange } from '../domain/lifecycle';
import { deploymentNotFound } from '../domain/not-found';
import { presentDeployment } from '../domain/present';
import type { DeploymentsDeps } from '../deps';

/** Archives a deployment, one-way: it never fires again; archiving again changes nothing. */
export const archiveDeployment =
  (deps: DeploymentsDeps): Handler<typeof deploymentSubjects.archive> =>
  async ({ deployment_id }, ctx) => {
    const changed = found(await changeDeploymentUnderLock(deps, tenantOf(ctx), deployment_id, archiveChange), () => deploymentNotFound(deployment_id));
    return presentDeployment(changed.row, changed.now);
  };
