import { Type, type Static } from '@sinclair/typebox';
import { Closed, IdOf, Nullable, Timestamp } from './common';

/**
 * An `mcp_oauth` credential's refresh-token exchange (bus, runtime -> vaults) and its live probe
 * (`POST /v1/vaults/{id}/credentials/{cid}/mcp_oauth_validate`, the SDK's
 * `BetaManagedAgentsCredentialValidation`). No reply here carries a secret but the refresh's new
 * access token, which only the runtime may ask for.
 */

/** An HTTP error answer as the probe captured it (the SDK's `BetaManagedAgentsRefreshHTTPResponse`): body cut short, secrets scrubbed. */
export const CapturedHttpResponse = Closed({
  status_code: Type.Integer(),
  content_type: Type.String(),
  body: Type.String(),
  body_truncated: Type.Boolean(),
});
export type CapturedHttpResponse = Static<typeof CapturedHttpResponse>;

/** Hex SHA-256 of an access token: names the token a caller saw refused without sending it back. */
export const TokenDigest = Type.String({ pattern: '^[0-9a-f]{64}$' });

/**
 * Exchange the credential's refresh token, unless the stored access token is no longer the one
 * the caller saw (`seen_access_token_sha256`): then another caller refreshed it already, and the
 * stored one is the answer. Runs under the vault's row lock, so concurrent refreshes exchange once.
 */
export const RefreshCredentialRequest = Closed({
  vault_id: IdOf('vault'),
  credential_id: IdOf('credential'),
  seen_access_token_sha256: TokenDigest,
});
export type RefreshCredentialRequest = Static<typeof RefreshCredentialRequest>;

export const RefreshOutcome = Type.Union([Type.Literal('succeeded'), Type.Literal('failed'), Type.Literal('connect_error'), Type.Literal('no_refresh_token')]);
export type RefreshOutcome = Static<typeof RefreshOutcome>;

export const RefreshCredentialReply = Type.Union([
  /** `exchanged`: false when another caller's refresh had stored this token already. */
  Closed({ status: Type.Literal('succeeded'), access_token: Type.String(), exchanged: Type.Boolean() }),
  /** The token endpoint answered with an error (`http_response`), or could not be reached (`message`), or there is nothing to exchange. */
  Closed({ status: Type.Literal('failed'), http_response: CapturedHttpResponse }),
  Closed({ status: Type.Literal('connect_error'), message: Type.String() }),
  Closed({ status: Type.Literal('no_refresh_token') }),
]);
export type RefreshCredentialReply = Static<typeof RefreshCredentialReply>;

/** The MCP probe step that failed (the SDK's `BetaManagedAgentsMCPProbe`). */
export const McpProbe = Closed({ method: Type.String(), http_response: Nullable(CapturedHttpResponse) });
export type McpProbe = Static<typeof McpProbe>;

/** `POST .../mcp_oauth_validate` reply, the SDK's `BetaManagedAgentsCredentialValidation`. */
export const CredentialValidation = Closed({
  type: Type.Literal('vault_credential_validation'),
  credential_id: Type.String(),
  vault_id: Type.String(),
  status: Type.Union([Type.Literal('valid'), Type.Literal('invalid'), Type.Literal('unknown')]),
  has_refresh_token: Type.Boolean(),
  mcp_probe: Nullable(McpProbe),
  refresh: Nullable(Closed({ status: RefreshOutcome, http_response: Nullable(CapturedHttpResponse) })),
  validated_at: Timestamp,
});
export type CredentialValidation = Static<typeof CredentialValidation>;
