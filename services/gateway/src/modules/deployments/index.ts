import { Elysia } from 'elysia';
import type { CallContext } from '@shared/bus/call-context';
import { deploymentSubjects } from '@shared/bus/subjects/deployments';
import { emptyBody, jsonBody } from '../../http/raw-body';
import type { GatewayDeps } from '../../routing/gateway-deps';
import { createGuard } from '../../routing/guard';
import { checkPathIds } from '../../routing/path-id';
import { servePage } from '../../routing/pagination';
import { DeploymentCreateBody, deploymentListRoute, DeploymentUpdateBody } from './model';

type ActionContext = { call: CallContext; params: { deployment_id: string }; body: unknown };

/** /v1/deployments: served by the deployments service. Stray query parameters are the guard's. */
export const deploymentsModule = (deps: GatewayDeps) => {
  /** pause, unpause, archive: no body (an empty object is tolerated), the deployment as it now is. */
  const action =
    (subject: typeof deploymentSubjects.pause) =>
    ({ call, params, body }: ActionContext) => {
      emptyBody(body);
      return deps.bus.call(subject, call, { deployment_id: params.deployment_id });
    };
  return new Elysia({ name: 'module-deployments' })
    .use(createGuard(deps))
    .onBeforeHandle(checkPathIds)
    .get('/v1/deployments', ({ call, url }) =>
      servePage(deploymentListRoute, { bus: deps.bus, cursorKey: deps.config.cursorKey }, call, url),
    )
    .post('/v1/deployments', ({ body, call }) =>
      deps.bus.call(deploymentSubjects.create, call, jsonBody(DeploymentCreateBody, body)),
    )
    .get('/v1/deployments/:deployment_id', ({ call, params }) =>
      deps.bus.call(deploymentSubjects.get, call, { deployment_id: params.deployment_id }),
    )
    .post('/v1/deployments/:deployment_id', ({ call, params, body }) =>
      deps.bus.call(deploymentSubjects.update, call, {
        deployment_id: params.deployment_id,
        update: jsonBody(DeploymentUpdateBody, body),
      }),
    )
    .post('/v1/deployments/:deployment_id/pause', action(deploymentSubjects.pause))
    .post('/v1/deployments/:deployment_id/unpause', action(deploymentSubjects.unpause))
    .post('/v1/deployments/:deployment_id/archive', action(deploymentSubjects.archive))
    .post('/v1/deployments/:deployment_id/run', async ({ call, params, body }) => {
      emptyBody(body);
      // The fire path with a manual trigger; the gateway may not call `fire` itself.
      return deps.bus.call(deploymentSubjects.run, call, { deployment_id: params.deployment_id });
    });
};
