import { deploymentRunSubjects } from '@shared/bus/subjects/deployments';
import { servePage } from '../../routing/pagination';
import { resourceModule } from '../../routing/resource-module';
import { route } from '../../routing/route';
import type { GatewayDeps } from '../../deps';
import { deploymentRunListRoute } from './model';

/** /v1/deployment_runs: what fires recorded, read-only, served by the deployments service. */
export const deploymentRunsModule = (deps: GatewayDeps) =>
  resourceModule('deployment-runs', deps, [
    route.list('/v1/deployment_runs', servePage(deploymentRunListRoute, deps)),
    route.get('/v1/deployment_runs/:deployment_run_id', { reply: deploymentRunSubjects.get.reply }, ({ call, params }) =>
      deps.bus.call(deploymentRunSubjects.get, call, params),
    ),
  ]);
