import type { Handler } from '@shared/bus/bus-server';
import type { vaultCredentialSubjects } from '@shared/bus/subjects/vaults';
import { unwrapDataKey } from '@shared/crypto/envelope';
import { tokenDigest } from '@shared/crypto/token-digest';
import { invalidRequest } from '@shared/errors/api-error';
import { updateCredential as updateCredentialRow } from '../db/credentials';
import { prepareAuth } from '../domain/credential-auth';
import { refreshedAuth } from '../domain/oauth-refresh';
import { openAuth, sealAuth } from '../domain/sealed-auth';
import type { VaultsDeps } from '../deps';
import { changeCredential } from './locked-change';

type S = typeof vaultCredentialSubjects.refresh;

/**
 * The refresh-token exchange of an `mcp_oauth` credential, for the runtime. It runs under the
 * vault's row lock (changeCredential), exchange included: a second caller that saw the same
 * refused token waits, then finds a newer stored token and gets it without a second exchange
 * (many token endpoints rotate refresh tokens and refuse the old one once used). The new tokens
 * are sealed before the lock is let go. Outcomes are logged without any token.
 */
export const refreshCredential =
  (deps: VaultsDeps): Handler<S> =>
  async ({ vault_id, credential_id, seen_access_token_sha256 }, ctx) =>
    changeCredential(deps, ctx, { vault_id, credential_id }, async (tx, { vault, credential: row }) => {
      if (vault.archivedAt) throw invalidRequest(`vault ${vault_id} is archived and its credentials cannot be used`);
      if (row.archivedAt || row.sealedSecret === null) throw invalidRequest(`credential ${credential_id} is archived and cannot be used`);
      if (row.kind !== 'mcp_oauth') throw invalidRequest(`credential ${credential_id} is not an mcp_oauth credential and has nothing to refresh`);
      const dataKey = unwrapDataKey(deps.keys, { keyId: vault.dataKeyId, wrapped: vault.wrappedDataKey }, vault.id);
      try {
        const stored = openAuth(dataKey, row.sealedSecret, row.id, row.kind);
        if (stored.type !== 'mcp_oauth') throw invalidRequest(`credential ${credential_id} is not an mcp_oauth credential`);
        if (tokenDigest(stored.access_token) !== seen_access_token_sha256) {
          return { status: 'succeeded' as const, access_token: stored.access_token, exchanged: false };
        }
        const refresh = stored.refresh;
        if (!refresh) return { status: 'no_refresh_token' as const };
        const result = await deps.tokenEndpoint.exchange(refresh);
        const logged = { request_id: ctx.request_id, vault_id, credential_id };
        if (result.status !== 'succeeded') {
          deps.logger.warn('an mcp_oauth refresh failed', { ...logged, outcome: result.status, status_code: result.status === 'failed' ? result.http_response.status_code : undefined });
          return result;
        }
        const now = deps.clock.now();
        const prepared = prepareAuth(refreshedAuth({ ...stored, refresh }, result, now), now, { expiryMustBeFuture: false, mcpUrls: null });
        await updateCredentialRow(tx, row.id, {
          displayName: row.displayName,
          metadata: row.metadata,
          auth: prepared.shown,
          sealedSecret: sealAuth(dataKey, prepared.sealed, row.id),
          updatedAt: now,
        });
        deps.logger.info('an mcp_oauth credential was refreshed', { ...logged, rotated_refresh_token: result.refresh_token !== undefined });
        return { status: 'succeeded' as const, access_token: result.access_token, exchanged: true };
      } finally {
        dataKey.fill(0);
      }
    });
