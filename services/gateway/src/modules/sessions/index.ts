import { Elysia } from 'elysia';
import { sessionSubjects } from '../../../../../shared/bus/subjects/sessions';
import type { GatewayDeps } from '../../routing/gateway-deps';
import { createGuard } from '../../routing/guard';
import { servePage } from '../../routing/pagination';
import { sessionListRoute } from './model';

/**
 * /v1/sessions: sessions the fires created, read-only, served by the deployments service.
 * The SDK pages sessions with a bidirectional cursor; only forward paging exists here, so
 * `prev_page` is always null (the SDK's auto-pagination follows `next_page` alone).
 */
export const sessionsModule = (deps: GatewayDeps) =>
  new Elysia({ name: 'module-sessions' })
    .use(createGuard(deps))
    .get('/v1/sessions', async ({ call, url }) => ({
      ...(await servePage(sessionListRoute, { bus: deps.bus, cursorKey: deps.config.cursorKey }, call, url)),
      prev_page: null,
    }))
    .get('/v1/sessions/:session_id', ({ call, params }) =>
      deps.bus.call(sessionSubjects.get, call, { session_id: params.session_id }),
    );
