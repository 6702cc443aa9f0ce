import type { CredentialAuthParams } from '@shared/schema/vault-credential';

/** An `mcp_oauth` credential's stored auth, and its refresh configuration. */
export type McpOAuthAuth = Extract<CredentialAuthParams, { type: 'mcp_oauth' }>;
export type McpOAuthRefresh = NonNullable<McpOAuthAuth['refresh']>;

/**
 * The auth after a successful exchange: the new access token; the new refresh token when the
 * endpoint rotated it (RFC 6749 section 6: otherwise the old one stays valid); the expiry from
 * `expires_in`, or unknown (null) when the endpoint did not say; nothing else changes.
 */
export function refreshedAuth(
  stored: McpOAuthAuth & { refresh: McpOAuthRefresh },
  exchanged: { access_token: string; refresh_token?: string; expires_in?: number },
  now: Date,
): McpOAuthAuth {
  return {
    ...stored,
    access_token: exchanged.access_token,
    expires_at: exchanged.expires_in === undefined ? null : new Date(now.getTime() + exchanged.expires_in * 1000).toISOString(),
    refresh: { ...stored.refresh, refresh_token: exchanged.refresh_token ?? stored.refresh.refresh_token },
  };
}
