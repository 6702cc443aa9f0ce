import { Elysia } from 'elysia';
import { sessionSubjects } from '@shared/bus/subjects/sessions';
import type { Session, SessionListFilters } from '@shared/schema/session';
import type { GatewayDeps } from '../../routing/gateway-deps';
import { createGuard } from '../../routing/guard';
import { checkPathIds } from '../../routing/path-id';
import { serveBidirectionalPage } from '../../routing/pagination';
import { sessionListRoute } from './model';

/**
 * /v1/sessions: sessions the fires created, read-only, served by the deployments service.
 * The SDK pages sessions with a bidirectional cursor: `next_page` continues in the list's
 * order, `prev_page` goes back a page (null on the first); its auto-pagination follows
 * `next_page` alone.
 */
export const sessionsModule = (deps: GatewayDeps) =>
  new Elysia({ name: 'module-sessions' })
    .use(createGuard(deps))
    .onBeforeHandle(checkPathIds)
    .get('/v1/sessions', ({ call, url }) =>
      serveBidirectionalPage<SessionListFilters, Session>(sessionListRoute, { bus: deps.bus, cursorKey: deps.config.cursorKey }, call, url),
    )
    .get('/v1/sessions/:session_id', ({ call, params }) =>
      deps.bus.call(sessionSubjects.get, call, { session_id: params.session_id }),
    );
