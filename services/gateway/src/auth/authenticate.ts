import { authenticationFailed } from '@shared/errors/api-error';
import type { Tenant } from '@shared/schema/tenant';
import type { ApiKeyStore } from './api-key-store';
import { looksLikeApiKey } from './api-key-secret';
import { DEVELOPMENT_API_KEY, DEVELOPMENT_TENANT } from './development-key';

export interface Authenticator {
  authenticate(headers: Headers): Promise<Tenant>;
}

/**
 * `X-Api-Key` is read first; `Authorization: Bearer` only when it is absent. A present but
 * invalid X-Api-Key is 401 even when the bearer token would be valid.
 */
export function createAuthenticator(store: ApiKeyStore, options: { allowDevKey: boolean }): Authenticator {
  return {
    async authenticate(headers) {
      const secret = presentedKey(headers);
      if (secret === undefined) throw authenticationFailed('missing API key: send X-Api-Key or Authorization: Bearer');
      if (secret === DEVELOPMENT_API_KEY) {
        if (options.allowDevKey) return DEVELOPMENT_TENANT;
        throw authenticationFailed('invalid API key');
      }
      if (!looksLikeApiKey(secret)) throw authenticationFailed('invalid API key');
      const tenant = await store.findTenant(secret);
      if (!tenant) throw authenticationFailed('invalid API key');
      return tenant;
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
