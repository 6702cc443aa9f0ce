import { Elysia } from 'elysia';
import { deploymentRunSubjects } from '@shared/bus/subjects/deployments';
import type { GatewayDeps } from '../../routing/gateway-deps';
import { createGuard } from '../../routing/guard';
import { checkPathIds } from '../../routing/path-id';
import { servePage } from '../../routing/pagination';
import { deploymentRunListRoute } from './model';

/** /v1/deployment_runs: what fires recorded, read-only, served by the deployments service. */
export const deploymentRunsModule = (deps: GatewayDeps) =>
  new Elysia({ name: 'module-deployment-runs' })
    .use(createGuard(deps))
    .onBeforeHandle(checkPathIds)
    .get('/v1/deployment_runs', ({ call, url }) =>
      servePage(deploymentRunListRoute, { bus: deps.bus, cursorKey: deps.config.cursorKey }, call, url),
    )
    .get('/v1/deployment_runs/:deployment_run_id', ({ call, params }) =>
      deps.bus.call(deploymentRunSubjects.get, call, { deployment_run_id: params.deployment_run_id }),
    );
