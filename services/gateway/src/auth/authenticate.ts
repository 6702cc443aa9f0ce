import { looksLikeSessionsToken, openSessionsToken, type SessionsTokenClaims } from '@shared/crypto/sessions-token';
import { authenticationFailed } from '@shared/errors/api-error';
import type { Tenant } from '@shared/schema/tenant';
import type { Clock } from '@shared/time/clock';
import type { ApiKeyStore } from './api-key-store';
import { looksLikeApiKey } from './api-key-secret';
import { DEVELOPMENT_API_KEY, DEVELOPMENT_TENANT } from './development-key';

/** Who is calling: a tenant, and for a sessions token, the one session and work item it may reach. */
export interface Caller {
  tenant: Tenant;
  sessionScope?: SessionsTokenClaims;
}

export interface Authenticator {
  /** `clientAddress` is asked only when an API key must be looked up in the database. */
  authenticate(headers: Headers, clientAddress: () => string): Promise<Caller>;
}

/**
 * `X-Api-Key` is read first; `Authorization: Bearer` only when it is absent. A present but
 * invalid X-Api-Key is 401 even when the bearer token would be valid. A bearer credential is an
 * API key (an environment worker's standing key), or a sessions token a work item's secret
 * carried (checked by signature and expiry, never looked up: routing/session-scope.ts then
 * keeps it to its one session and work item). A key that must be looked up in the database
 * (not cached) costs the client's address one failed lookup unless it is found: past its limit,
 * 429 without a lookup.
 */
export function createAuthenticator(
  store: ApiKeyStore,
  options: {
    allowDevKey: boolean;
    sessionsTokenKey: Buffer;
    clock: Clock;
    chargeFailedLookup: (address: string) => Promise<() => void>;
  },
): Authenticator {
  return {
    async authenticate(headers, clientAddress) {
      const secret = presentedKey(headers);
      if (secret === undefined) throw authenticationFailed('missing API key: send X-Api-Key or Authorization: Bearer');
      if (secret === DEVELOPMENT_API_KEY) {
        if (options.allowDevKey) return { tenant: DEVELOPMENT_TENANT };
        throw authenticationFailed('invalid API key');
      }
      if (looksLikeSessionsToken(secret)) {
        const claims = openSessionsToken(options.sessionsTokenKey, secret, options.clock.now());
        if (!claims) throw authenticationFailed('invalid or expired sessions token');
        const tenant: Tenant = {
          organization_id: claims.organization_id,
          workspace_id: claims.workspace_id,
          scope: 'read_write',
          key_id: `work:${claims.work_id}`,
          session_id: claims.session_id,
        };
        return { tenant, sessionScope: claims };
      }
      if (!looksLikeApiKey(secret)) throw authenticationFailed('invalid API key');
      const tenant = await store.findTenant(secret, () => options.chargeFailedLookup(clientAddress()));
      if (!tenant) throw authenticationFailed('invalid API key');
      return { tenant };
    },
  };
}

function presentedKey(headers: Headers): string | undefined {
  const apiKey = headers.get('x-api-key');
  if (apiKey !== null) return apiKey.trim();
  const authorization = headers.get('authorization');
  if (authorization === null) return undefined;
  const match = /^Bearer\s+(.+)$/i.exec(authorization.trim());
  return match ? match[1].trim() : '';
}
