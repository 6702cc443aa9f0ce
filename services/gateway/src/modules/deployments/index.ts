import { Elysia } from 'elysia';
import { deploymentSubjects } from '../../../../../shared/bus/subjects/deployments';
import { jsonBody } from '../../http/raw-body';
import type { GatewayDeps } from '../../routing/gateway-deps';
import { createGuard } from '../../routing/guard';
import { servePage } from '../../routing/pagination';
import { DeploymentCreateBody, deploymentListRoute } from './model';

/** /v1/deployments: served by the deployments service. */
export const deploymentsModule = (deps: GatewayDeps) =>
  new Elysia({ name: 'module-deployments' })
    .use(createGuard(deps))
    .get('/v1/deployments', ({ call, url }) =>
      servePage(deploymentListRoute, { bus: deps.bus, cursorKey: deps.config.cursorKey }, call, url),
    )
    .post('/v1/deployments', ({ body, call }) =>
      deps.bus.call(deploymentSubjects.create, call, jsonBody(DeploymentCreateBody, body)),
    );
