import { sessionSubjects } from '@shared/bus/subjects/sessions';
import { serveBidirectionalPage } from '../../routing/pagination';
import { resourceModule } from '../../routing/resource-module';
import { route } from '../../routing/route';
import type { GatewayDeps } from '../../service';
import { sessionListRoute } from './model';

/**
 * /v1/sessions: sessions the fires created, read-only, served by the deployments service.
 * The SDK pages sessions with a bidirectional cursor: `next_page` continues in the list's
 * order, `prev_page` goes back a page (null on the first); its auto-pagination follows
 * `next_page` alone.
 */
export const sessionsModule = (deps: GatewayDeps) =>
  resourceModule('sessions', deps, [
    route.list('/v1/sessions', serveBidirectionalPage(sessionListRoute, deps)),
    route.get('/v1/sessions/:session_id', {}, ({ call, params }) => deps.bus.call(sessionSubjects.get, call, params)),
  ]);
