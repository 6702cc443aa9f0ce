import { deploymentSubjects } from '@shared/bus/subjects/deployments';
import { DeploymentCreateRequest, DeploymentUpdateRequest } from '@shared/schema/deployment';
import { servePage } from '../../routing/pagination';
import { resourceModule } from '../../routing/resource-module';
import { route } from '../../routing/route';
import type { GatewayDeps } from '../../deps';
import { deploymentListRoute } from './model';

/**
 * /v1/deployments: served by the deployments service. Bodies are validated here, so a bad
 * request never costs a bus round trip; updates follow the SDK's patch semantics, per field.
 * pause, unpause, archive and run take no body (an empty object is tolerated).
 */
export const deploymentsModule = (deps: GatewayDeps) =>
  resourceModule('deployments', deps, [
    route.list('/v1/deployments', servePage(deploymentListRoute, deps)),
    route.post('/v1/deployments', { body: DeploymentCreateRequest, reply: deploymentSubjects.create.reply }, ({ call, body }) =>
      deps.bus.call(deploymentSubjects.create, call, body),
    ),
    route.get('/v1/deployments/:deployment_id', { reply: deploymentSubjects.get.reply }, ({ call, params }) =>
      deps.bus.call(deploymentSubjects.get, call, params),
    ),
    // 409: a concurrent change kept winning the optimistic lock.
    route.post(
      '/v1/deployments/:deployment_id',
      { body: DeploymentUpdateRequest, reply: deploymentSubjects.update.reply, errors: [409] },
      ({ call, params, body }) => deps.bus.call(deploymentSubjects.update, call, { deployment_id: params.deployment_id, update: body }),
    ),
    route.post('/v1/deployments/:deployment_id/pause', { reply: deploymentSubjects.pause.reply }, ({ call, params }) =>
      deps.bus.call(deploymentSubjects.pause, call, params),
    ),
    route.post('/v1/deployments/:deployment_id/unpause', { reply: deploymentSubjects.unpause.reply }, ({ call, params }) =>
      deps.bus.call(deploymentSubjects.unpause, call, params),
    ),
    route.post('/v1/deployments/:deployment_id/archive', { reply: deploymentSubjects.archive.reply }, ({ call, params }) =>
      deps.bus.call(deploymentSubjects.archive, call, params),
    ),
    // The fire path with a manual trigger; the gateway may not call `fire` itself. 409: the
    // deployment kept changing while it was being fired.
    route.post('/v1/deployments/:deployment_id/run', { reply: deploymentSubjects.run.reply, errors: [409] }, ({ call, params }) =>
      deps.bus.call(deploymentSubjects.run, call, params),
    ),
  ]);
