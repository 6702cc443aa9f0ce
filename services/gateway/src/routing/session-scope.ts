import type { SessionsTokenClaims } from '@shared/crypto/sessions-token';
import { permissionDenied } from '@shared/errors/api-error';
import type { Session } from '@shared/schema/session';

/**
 * What a sessions token may do: what the SDK's environment worker does for the one session and
 * work item it was issued for, and nothing else. Any other route, or these routes naming another
 * session, item, memory store or skill, is 403. Retrieving or updating the item takes an API key
 * (SDK 1.x documents that both reject the item's secret).
 *
 * - `session`, `work`: read the session, list, stream and send its events; heartbeat and stop its item.
 * - `memory_read`, `memory_write`: the memories of a store the session mounts, which the worker
 *   syncs (`SessionMemoryStores`); writes only where the session mounts the store `read_write`:
 *   the server refuses them, not only the worker's file tools. Versions and redaction are not
 *   the worker's business.
 * - `skill`: a version of a skill the session's agent loads, and its files (`setupSkills`).
 */
type Scope = 'session' | 'work' | 'memory_read' | 'memory_write' | 'skill';

const MEMORIES = '/v1/memory_stores/:memory_store_id/memories';
const SKILL_VERSION = '/v1/skills/:skill_id/versions/:version';

const SESSION_ROUTES: Record<string, Scope> = {
  'GET /v1/sessions/:session_id': 'session',
  'GET /v1/sessions/:session_id/events': 'session',
  'POST /v1/sessions/:session_id/events': 'session',
  'GET /v1/sessions/:session_id/events/stream': 'session',
  'POST /v1/environments/:environment_id/work/:work_id/heartbeat': 'work',
  'POST /v1/environments/:environment_id/work/:work_id/stop': 'work',
  [`GET ${MEMORIES}`]: 'memory_read',
  [`GET ${MEMORIES}/:memory_id`]: 'memory_read',
  [`POST ${MEMORIES}`]: 'memory_write',
  [`POST ${MEMORIES}/:memory_id`]: 'memory_write',
  [`DELETE ${MEMORIES}/:memory_id`]: 'memory_write',
  [`GET ${SKILL_VERSION}`]: 'skill',
  [`GET ${SKILL_VERSION}/content`]: 'skill',
};

const OUT_OF_SCOPE = 'this sessions token is limited to its own session, work item, memory stores and skills';

/**
 * Throws 403 unless the token's session may make this call. `sessionOf` reads the session (its
 * resources and agent, as they are now: a store removed from the session is out of reach at once);
 * it is called only for memory and skill routes.
 */
export async function checkSessionScope(
  claims: SessionsTokenClaims,
  operation: string,
  params: Record<string, string | undefined>,
  sessionOf: () => Promise<Pick<Session, 'resources' | 'agent'>>,
): Promise<void> {
  const scope = SESSION_ROUTES[operation];
  switch (scope) {
    case 'session':
      if (params.session_id === claims.session_id) return;
      break;
    case 'work':
      if (params.environment_id === claims.environment_id && params.work_id === claims.work_id) return;
      break;
    case 'memory_read':
    case 'memory_write': {
      const session = await sessionOf();
      const mount = session.resources.find((r) => r.type === 'memory_store' && r.memory_store_id === params.memory_store_id);
      if (!mount || mount.type !== 'memory_store') break;
      if (scope === 'memory_write' && mount.access === 'read_only') {
        throw permissionDenied(`memory store '${mount.memory_store_id}' is mounted read-only in session '${claims.session_id}'`);
      }
      return;
    }
    case 'skill': {
      const session = await sessionOf();
      if (session.agent.skills.some((s) => s.skill_id === params.skill_id)) return;
      break;
    }
  }
  throw permissionDenied(OUT_OF_SCOPE);
}
