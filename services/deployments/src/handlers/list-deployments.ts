import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { deploymentSubjects } from '@shared/bus/subjects/deployments';
import { listDeploymentPage } from '../db/deployments';
import { presentDeployment } from '../domain/present';
import type { DeploymentsDeps } from '../deps';

export const listDeployments =
  (deps: DeploymentsDeps): Handler<typeof deploymentSubjects.list> =>
  async (request, ctx) => {
    const tenant = tenantOf(ctx);
    const now = deps.clock.now();
    return listDeploymentPage(deps.db, tenant, request, (row) => presentDeployment(row, now));
  };
