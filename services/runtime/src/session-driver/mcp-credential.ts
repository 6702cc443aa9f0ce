import type { CallContext } from '@shared/bus/call-context';
import { tokenDigest } from '@shared/crypto/token-digest';
import { ApiError } from '@shared/errors/api-error';
import type { McpServer } from '@shared/schema/agent-mcp-tools';
import type { RefreshCredentialReply } from '@shared/schema/vault-credential-validation';
import { McpFailure } from '../clients/mcp-servers';
import { bearerOf, credentialFor, oauthExpired, type McpCredential } from '../domain/mcp-tools';
import type { RuntimeDeps } from '../deps';

/** Why a refresh gave no token, in words for the session error (never a token or a response body). */
function refreshFailure(reply: Exclude<RefreshCredentialReply, { status: 'succeeded' }>): string {
  if (reply.status === 'failed') return `its token endpoint answered HTTP ${reply.http_response.status_code}`;
  if (reply.status === 'connect_error') return reply.message;
  return 'the credential has no refresh token';
}

/**
 * A new access token for an `mcp_oauth` credential, exchanged and stored by the vaults service
 * (which resolves a concurrent refresh once); a refresh that fails is the server's
 * `mcp_authentication_failed_error`.
 */
export async function refreshedToken(deps: RuntimeDeps, ctx: CallContext, server: McpServer, credential: McpCredential, seen: string): Promise<string> {
  let reply: RefreshCredentialReply;
  try {
    reply = await deps.vaults.refresh(ctx, { vault_id: credential.vault_id, credential_id: credential.credential_id, seen_access_token_sha256: tokenDigest(seen) });
  } catch (err) {
    // The credential or its vault was archived or deleted meanwhile: nothing to send any more.
    if (err instanceof ApiError && err.status < 500) throw new McpFailure('authentication', `the MCP server ${server.name}'s OAuth credential could not be refreshed: ${err.message}`);
    throw err;
  }
  if (reply.status === 'succeeded') return reply.access_token;
  throw new McpFailure('authentication', `the MCP server ${server.name}'s OAuth access token could not be refreshed: ${refreshFailure(reply)}`);
}

/**
 * Runs `use` with the server's bearer from the session's vaults. An `mcp_oauth` access token past
 * its expiry is refreshed first; one the server refuses with 401 is refreshed and `use` runs once
 * more with the new token (a refused request did nothing, so trying it again is safe).
 */
export async function withMcpBearer<T>(
  deps: RuntimeDeps,
  ctx: CallContext,
  server: McpServer,
  vaultIds: readonly string[],
  use: (token: string | undefined) => Promise<T>,
): Promise<T> {
  const credential = credentialFor(server.url, await deps.vaults.resolve(ctx, vaultIds));
  let token = bearerOf(credential);
  if (credential?.auth.type !== 'mcp_oauth' || token === undefined) return use(token);
  if (oauthExpired(credential, deps.clock.now())) token = await refreshedToken(deps, ctx, server, credential, token);
  try {
    return await use(token);
  } catch (err) {
    if (!(err instanceof McpFailure) || err.status !== 401 || !credential.auth.refresh) throw err;
    return use(await refreshedToken(deps, ctx, server, credential, token));
  }
}
