import type { SessionsTokenClaims } from '@shared/crypto/sessions-token';
import { permissionDenied } from '@shared/errors/api-error';

/**
 * What a sessions token may do: what the SDK's environment worker does for the one session and
 * work item it was issued for (read the session, list, stream and send its events, heartbeat and
 * stop its item), and nothing else. Any other route, or these routes naming another session or
 * item, is 403. Retrieving or updating the item takes an API key (SDK 1.x documents that both
 * reject the item's secret).
 */
const SESSION_ROUTES: Record<string, 'session' | 'work'> = {
  'GET /v1/sessions/:session_id': 'session',
  'GET /v1/sessions/:session_id/events': 'session',
  'POST /v1/sessions/:session_id/events': 'session',
  'GET /v1/sessions/:session_id/events/stream': 'session',
  'POST /v1/environments/:environment_id/work/:work_id/heartbeat': 'work',
  'POST /v1/environments/:environment_id/work/:work_id/stop': 'work',
};

export function checkSessionScope(claims: SessionsTokenClaims, operation: string, params: Record<string, string | undefined>): void {
  const scope = SESSION_ROUTES[operation];
  const allowed =
    scope === 'session'
      ? params.session_id === claims.session_id
      : scope === 'work'
        ? params.environment_id === claims.environment_id && params.work_id === claims.work_id
        : false;
  if (!allowed) throw permissionDenied('this sessions token is limited to its own session and work item');
}
