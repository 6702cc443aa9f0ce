import { sessionResourceSubjects, sessionSubjects } from '@shared/bus/subjects/sessions';
import { SessionResourceParams } from '@shared/schema/deployment';
import { SessionCreateRequest, SessionResourceUpdateRequest, SessionUpdateRequest } from '@shared/schema/session';
import { servePage, serveBidirectionalPage } from '../../routing/pagination';
import { resourceModule } from '../../routing/resource-module';
import { itemRoutes } from '../../routing/item-routes';
import { route } from '../../routing/route';
import type { GatewayDeps } from '../../deps';
import { sessionListRoute, sessionResourceListRoute } from './model';

/**
 * /v1/sessions and /v1/sessions/{id}/resources, served by the deployments service (which also
 * creates the sessions of fires). Bodies are validated here, so a bad request never costs a bus
 * round trip. The SDK pages sessions with a bidirectional cursor: `next_page` continues in the
 * list's order, `prev_page` goes back a page (null on the first); its auto-pagination follows
 * `next_page` alone. A session's resources page with the plain cursor (`PageCursor`). The event
 * routes (`/v1/sessions/{id}/events*`) are the session-events module's.
 */
export const sessionsModule = (deps: GatewayDeps) =>
  resourceModule('sessions', deps, [
    route.list('/v1/sessions', serveBidirectionalPage(sessionListRoute, deps)),
    route.post('/v1/sessions', { body: SessionCreateRequest, reply: sessionSubjects.create.reply }, ({ call, body }) =>
      deps.bus.call(sessionSubjects.create, call, body),
    ),
    ...itemRoutes(deps, '/v1/sessions/:session_id', sessionSubjects, SessionUpdateRequest),

    route.list('/v1/sessions/:session_id/resources', servePage(sessionResourceListRoute, deps)),
    route.post('/v1/sessions/:session_id/resources', { body: SessionResourceParams, reply: sessionResourceSubjects.add.reply }, ({ call, params, body }) =>
      deps.bus.call(sessionResourceSubjects.add, call, { session_id: params.session_id, resource: body }),
    ),
    route.get('/v1/sessions/:session_id/resources/:resource_id', { reply: sessionResourceSubjects.get.reply }, ({ call, params }) =>
      deps.bus.call(sessionResourceSubjects.get, call, params),
    ),
    route.post(
      '/v1/sessions/:session_id/resources/:resource_id',
      { body: SessionResourceUpdateRequest, reply: sessionResourceSubjects.update.reply },
      ({ call, params, body }) => deps.bus.call(sessionResourceSubjects.update, call, { ...params, update: body }),
    ),
    route.delete('/v1/sessions/:session_id/resources/:resource_id', { reply: sessionResourceSubjects.delete.reply }, ({ call, params }) =>
      deps.bus.call(sessionResourceSubjects.delete, call, params),
    ),
  ]);
