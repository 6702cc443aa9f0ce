import { Elysia } from 'elysia';
import { environmentSubjects } from '@shared/bus/subjects/catalog';
import { EnvironmentCreateBody, EnvironmentUpdateBody } from '@shared/schema/environment';
import { emptyBody, jsonBody } from '../../http/raw-body';
import type { GatewayDeps } from '../../routing/gateway-deps';
import { createGuard } from '../../routing/guard';
import { checkPathIds } from '../../routing/path-id';
import { servePage } from '../../routing/pagination';
import { environmentListRoute } from './model';

/** /v1/environments: container configurations sessions run in, served by the catalog service. */
export const environmentsModule = (deps: GatewayDeps) =>
  new Elysia({ name: 'module-environments' })
    .use(createGuard(deps))
    .onBeforeHandle(checkPathIds)
    .post('/v1/environments', ({ call, body }) => {
      return deps.bus.call(environmentSubjects.create, call, jsonBody(EnvironmentCreateBody, body));
    })
    .get('/v1/environments', ({ call, url }) =>
      servePage(environmentListRoute, { bus: deps.bus, cursorKey: deps.config.cursorKey }, call, url),
    )
    .get('/v1/environments/:environment_id', ({ call, params }) => {
      return deps.bus.call(environmentSubjects.get, call, { environment_id: params.environment_id });
    })
    .post('/v1/environments/:environment_id', ({ call, params, body }) => {
      const patch = jsonBody(EnvironmentUpdateBody, body);
      return deps.bus.call(environmentSubjects.update, call, { environment_id: params.environment_id, update: patch });
    })
    .post('/v1/environments/:environment_id/archive', ({ call, params, body }) => {
      emptyBody(body);
      return deps.bus.call(environmentSubjects.archive, call, { environment_id: params.environment_id });
    })
    .delete('/v1/environments/:environment_id', ({ call, params, body }) => {
      emptyBody(body);
      return deps.bus.call(environmentSubjects.delete, call, { environment_id: params.environment_id });
    });
