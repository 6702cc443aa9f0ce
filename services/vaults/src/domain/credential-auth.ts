import { checkMcpServerUrl, DEFAULT_MCP_URL_RULES, type McpUrlRules } from '@shared/agents/mcp-server-url';
import { invalidRequest } from '@shared/errors/api-error';
import { parseRfc3339 } from '@shared/schema/rfc3339';
import type {
  CredentialAuth,
  CredentialAuthParams,
  CredentialAuthUpdate,
} from '@shared/schema/vault-credential';

/** What a credential is made of once its request is checked: the sealed part and the shown part. */
export interface PreparedAuth {
  /** The whole auth with defaults filled in, secrets included: sealed, and what resolve returns. */
  sealed: CredentialAuthParams;
  /** Configuration only: stored in clear and shown in responses. */
  shown: CredentialAuth;
  /** Two active credentials of one vault must not share this (env var name or MCP server URL). */
  target: string;
}

function checkUrl(field: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalidRequest(`${field}: must be an http or https URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw invalidRequest(`${field}: must be an http or https URL`);
  return value;
}

/** Checks what the schema cannot (URLs, times, at least one injection location) and splits the auth. */
export interface PrepareOptions {
  expiryMustBeFuture: boolean;
  /**
   * The service's MCP URL rules (`ALLOW_PRIVATE_MCP_URLS`); null for an update, whose MCP server
   * URL is the stored one (immutable), kept as it is even if stored before a stricter rule.
   */
  mcpUrls: McpUrlRules | null;
}

export function prepareAuth(
  auth: CredentialAuthParams,
  now: Date,
  options: PrepareOptions = { expiryMustBeFuture: true, mcpUrls: DEFAULT_MCP_URL_RULES },
): PreparedAuth {
  const checkMcpUrl = (url: string) => options.mcpUrls && checkMcpServerUrl(url, 'auth.mcp_server_url', options.mcpUrls);
  switch (auth.type) {
    case 'static_bearer': {
      checkMcpUrl(auth.mcp_server_url);
      return {
        sealed: { type: 'static_bearer', mcp_server_url: auth.mcp_server_url, token: auth.token },
        shown: { type: 'static_bearer', mcp_server_url: auth.mcp_server_url },
        target: `mcp:${auth.mcp_server_url}`,
      };
    }
    case 'environment_variable': {
      const injection = { body: auth.injection_location?.body ?? true, header: auth.injection_location?.header ?? true };
      if (!injection.body && !injection.header) {
        throw invalidRequest('auth.injection_location: at least one of body or header must be enabled');
      }
      const networking =
        auth.networking.type === 'limited'
          ? { type: 'limited' as const, allowed_hosts: auth.networking.allowed_hosts.map((h) => h.toLowerCase()) }
          : { type: 'unrestricted' as const };
      return {
        sealed: {
          type: 'environment_variable',
          secret_name: auth.secret_name,
          secret_value: auth.secret_value,
          networking,
          injection_location: injection,
        },
        shown: { type: 'environment_variable', secret_name: auth.secret_name, networking, injection_location: injection },
        target: `env:${auth.secret_name}`,
      };
    }
    case 'mcp_oauth': {
      checkMcpUrl(auth.mcp_server_url);
      let expiresAt: string | null = null;
      if (auth.expires_at !== undefined && auth.expires_at !== null) {
        const parsed = parseRfc3339(auth.expires_at);
        if (!parsed) throw invalidRequest('auth.expires_at: must be an RFC 3339 timestamp');
        if (options.expiryMustBeFuture && parsed.getTime() <= now.getTime()) throw invalidRequest('auth.expires_at: must be in the future');
        expiresAt = parsed.toISOString();
      }
      const refresh = auth.refresh ?? null;
      if (refresh) checkUrl('auth.refresh.token_endpoint', refresh.token_endpoint);
      const refreshShown = refresh && {
        client_id: refresh.client_id,
        token_endpoint: refresh.token_endpoint,
        token_endpoint_auth: { type: refresh.token_endpoint_auth.type },
        resource: refresh.resource ?? null,
        scope: refresh.scope ?? null,
      };
      return {
        sealed: {
          type: 'mcp_oauth',
          mcp_server_url: auth.mcp_server_url,
          access_token: auth.access_token,
          expires_at: expiresAt,
          refresh: refresh && { ...refreshShown!, refresh_token: refresh.refresh_token, token_endpoint_auth: refresh.token_endpoint_auth },
        },
        shown: { type: 'mcp_oauth', mcp_server_url: auth.mcp_server_url, expires_at: expiresAt, refresh: refreshShown },
        target: `mcp:${auth.mcp_server_url}`,
      };
    }
  }
}

/** Human wording of a target, for the conflict message. */
export const describeTarget = (target: string): string =>
  target.startsWith('env:')
    ? `environment variable ${target.slice(4)}`
    : `MCP server ${target.slice(4)}`;

/**
 * Applies an auth update to the stored (decrypted) auth. The kind cannot change; the MCP server
 * URL, secret name and OAuth client are immutable; omitted or null fields keep their value.
 */
export function mergeAuthUpdate(stored: CredentialAuthParams, update: CredentialAuthUpdate): CredentialAuthParams {
  if (update.type !== stored.type) {
    throw invalidRequest(`auth.type: must be ${stored.type}, the credential's type, which cannot change`);
  }
  if (stored.type === 'static_bearer' && update.type === 'static_bearer') {
    return { ...stored, token: update.token ?? stored.token };
  }
  if (stored.type === 'environment_variable' && update.type === 'environment_variable') {
    return {
      ...stored,
      secret_value: update.secret_value ?? stored.secret_value,
      networking: update.networking ?? stored.networking,
      injection_location: { ...stored.injection_location, ...update.injection_location },
    };
  }
  if (stored.type === 'mcp_oauth' && update.type === 'mcp_oauth') {
    let refresh = stored.refresh ?? null;
    if (update.refresh) {
      if (!refresh) throw invalidRequest('auth.refresh: the credential has no refresh configuration to update');
      let endpointAuth = refresh.token_endpoint_auth;
      if (update.refresh.token_endpoint_auth) {
        if (endpointAuth.type === 'none') {
          throw invalidRequest('auth.refresh.token_endpoint_auth: the credential does not use a client secret');
        }
        // The stored method stays, whichever of the two the update names.
        endpointAuth = { type: endpointAuth.type, client_secret: update.refresh.token_endpoint_auth.client_secret ?? endpointAuth.client_secret };
      }
      const scope = update.refresh.scope === undefined || update.refresh.scope === null ? refresh.scope : update.refresh.scope || null;
      refresh = {
        ...refresh,
        refresh_token: update.refresh.refresh_token ?? refresh.refresh_token,
        scope,
        token_endpoint_auth: endpointAuth,
      };
    }
    return {
      ...stored,
      access_token: update.access_token ?? stored.access_token,
      expires_at: update.expires_at === undefined ? stored.expires_at : update.expires_at,
      refresh,
    };
  }
  throw invalidRequest('auth.type: does not match the credential');
}
