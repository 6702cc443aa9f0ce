import type { Handler } from '@shared/bus/bus-server';
import type { mcpCredentialSubjects } from '@shared/bus/subjects/runtime';
import { tokenDigest } from '@shared/crypto/token-digest';
import { invalidRequest } from '@shared/errors/api-error';
import { toTimestamp } from '@shared/time/clock';
import { validationVerdict } from '../domain/credential-validation';
import type { RuntimeDeps } from '../deps';

/**
 * `mcp_oauth_validate`: the credential's MCP server probed with its access token (initialize and
 * tools/list), as the runtime reaches MCP servers (its private-host rule included). On a 401 the
 * refresh token is exchanged (by the vaults service, stored as any refresh is) and the new token
 * probed. Only `mcp_oauth` credentials are validated (the SDK's method is theirs): any other kind,
 * or an archived credential, is 400; a credential or vault that is not the caller's is 404.
 */
export const validateMcpCredential =
  (deps: RuntimeDeps): Handler<typeof mcpCredentialSubjects.validate> =>
  async ({ vault_id, credential_id }, ctx) => {
    const shown = await deps.vaults.get(ctx, { vault_id, credential_id });
    if (shown.auth.type !== 'mcp_oauth') {
      throw invalidRequest(`credential ${credential_id} is a ${shown.auth.type} credential: only mcp_oauth credentials can be validated`);
    }
    if (shown.archived_at) throw invalidRequest(`credential ${credential_id} is archived and cannot be validated`);
    const [vault] = await deps.vaults.resolve(ctx, [vault_id]);
    const auth = vault?.credentials.find((c) => c.id === credential_id)?.auth;
    if (vault?.state !== 'ok' || auth?.type !== 'mcp_oauth') throw invalidRequest(`vault ${vault_id} cannot be used (${vault?.state ?? 'not_found'})`);

    const server = { name: auth.mcp_server_url, type: 'url' as const, url: auth.mcp_server_url };
    const first = await deps.mcp.probe(server, auth.access_token);
    let verdict = validationVerdict(first);
    if (!first.ok && first.status === 401) {
      const refresh = auth.refresh
        ? await deps.vaults.refresh(ctx, { vault_id, credential_id, seen_access_token_sha256: tokenDigest(auth.access_token) })
        : ({ status: 'no_refresh_token' } as const);
      const second = refresh.status === 'succeeded' ? await deps.mcp.probe(server, refresh.access_token) : undefined;
      verdict = validationVerdict(first, refresh, second);
    }
    return {
      type: 'vault_credential_validation',
      credential_id,
      vault_id,
      has_refresh_token: !!auth.refresh,
      ...verdict,
      validated_at: toTimestamp(deps.clock.now()),
    };
  };
