import { Type, type Static } from '@sinclair/typebox';
import { Closed, IdOf, ListReply, ListRequest, Metadata, MetadataPatch, Nullable, Timestamp } from './common';
import { ArchivableListFilters, Deleted, ReturnedResource } from './resource-shapes';
import { ReferenceState } from './references';

/**
 * Vault credentials, in the shapes of the SDK's `BetaManagedAgentsCredential` and its auth
 * unions. Request forms carry the secret fields; response forms never do. The secret is
 * write-only: it leaves the vaults service only through `vaults.credentials.resolve`.
 */

const Url = Type.String({
  minLength: 1,
  maxLength: 2048,
  pattern: '^https?://[^\\s]+$',
  description: 'must be an http or https URL',
});
const Host = Type.String({
  minLength: 1,
  maxLength: 255,
  pattern: '^(\\*\\.)?[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$',
  description: 'must be a bare hostname, an IPv4 address or a *. wildcard',
});
const Token = Type.String({ minLength: 1, maxLength: 8192 });

export const CredentialNetworking = Type.Union([
  Closed({ type: Type.Literal('unrestricted') }),
  Closed({ type: Type.Literal('limited'), allowed_hosts: Type.Array(Host, { minItems: 1, maxItems: 16 }) }),
]);
export type CredentialNetworking = Static<typeof CredentialNetworking>;

export const InjectionLocation = Closed({ body: Type.Boolean(), header: Type.Boolean() });
export type InjectionLocation = Static<typeof InjectionLocation>;

const TokenEndpointAuthParams = Type.Union([
  Closed({ type: Type.Literal('none') }),
  Closed({ type: Type.Literal('client_secret_basic'), client_secret: Type.String({ minLength: 1, maxLength: 1024 }) }),
  Closed({ type: Type.Literal('client_secret_post'), client_secret: Type.String({ minLength: 1, maxLength: 1024 }) }),
]);

const OptionalText = (maxLength: number) => Type.Optional(Nullable(Type.String({ maxLength })));

export const StaticBearerAuthParams = Closed({ type: Type.Literal('static_bearer'), token: Token, mcp_server_url: Url });
export const EnvironmentVariableAuthParams = Closed({
  type: Type.Literal('environment_variable'),
  secret_name: Type.String({
    minLength: 1,
    maxLength: 255,
    pattern: '^[A-Za-z_][A-Za-z0-9_]*$',
    description: 'must be an environment variable name (letters, digits and _, not starting with a digit)',
  }),
  secret_value: Type.String({ minLength: 1, maxLength: 16384 }),
  networking: CredentialNetworking,
  injection_location: Type.Optional(
    Closed({ body: Type.Optional(Type.Boolean()), header: Type.Optional(Type.Boolean()) }),
  ),
});
export const McpOAuthAuthParams = Closed({
  type: Type.Literal('mcp_oauth'),
  access_token: Token,
  mcp_server_url: Url,
  expires_at: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 64 }))),
  refresh: Type.Optional(
    Nullable(
      Closed({
        client_id: Type.String({ minLength: 1, maxLength: 1024 }),
        refresh_token: Token,
        token_endpoint: Url,
        token_endpoint_auth: TokenEndpointAuthParams,
        resource: OptionalText(2048),
        scope: OptionalText(2048),
      }),
    ),
  ),
});

/** `auth` of a create request: the secret travels here once and is sealed at once. */
export const CredentialAuthParams = Type.Union([McpOAuthAuthParams, StaticBearerAuthParams, EnvironmentVariableAuthParams]);
export type CredentialAuthParams = Static<typeof CredentialAuthParams>;

/** `auth` as shown in responses: configuration only, never a secret or any part of one. */
export const CredentialAuth = Type.Union([
  Closed({
    type: Type.Literal('mcp_oauth'),
    mcp_server_url: Type.String(),
    expires_at: Nullable(Timestamp),
    refresh: Nullable(
      Closed({
        client_id: Type.String(),
        token_endpoint: Type.String(),
        token_endpoint_auth: Closed({
          type: Type.Union([
            Type.Literal('none'),
            Type.Literal('client_secret_basic'),
            Type.Literal('client_secret_post'),
          ]),
        }),
        resource: Nullable(Type.String()),
        scope: Nullable(Type.String()),
      }),
    ),
  }),
  Closed({ type: Type.Literal('static_bearer'), mcp_server_url: Type.String() }),
  Closed({
    type: Type.Literal('environment_variable'),
    secret_name: Type.String(),
    networking: CredentialNetworking,
    injection_location: InjectionLocation,
  }),
]);
export type CredentialAuth = Static<typeof CredentialAuth>;

export const VaultCredential = ReturnedResource('vault_credential', {
  vault_id: Type.String(),
  display_name: Nullable(Type.String()),
  auth: CredentialAuth,
  metadata: Metadata,
});
export type VaultCredential = Static<typeof VaultCredential>;

/** `POST /v1/vaults/{id}/credentials` body. */
export const CredentialCreateRequest = Closed({
  auth: CredentialAuthParams,
  display_name: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
  metadata: Type.Optional(Metadata),
});
export type CredentialCreateRequest = Static<typeof CredentialCreateRequest>;

/** `auth` of an update: same `type` as stored; omitted or null fields keep their stored value. */
const KeepOr = <T extends Parameters<typeof Nullable>[0]>(schema: T) => Type.Optional(Nullable(schema));
export const CredentialAuthUpdate = Type.Union([
  Closed({
    type: Type.Literal('mcp_oauth'),
    access_token: KeepOr(Token),
    /** null: the expiry is no longer known. */
    expires_at: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 64 }))),
    refresh: KeepOr(
      Closed({
        refresh_token: KeepOr(Token),
        /** An empty string clears the stored scope. */
        scope: KeepOr(Type.String({ maxLength: 2048 })),
        token_endpoint_auth: Type.Optional(
          Type.Union([
            Closed({ type: Type.Literal('client_secret_basic'), client_secret: KeepOr(Type.String({ minLength: 1, maxLength: 1024 })) }),
            Closed({ type: Type.Literal('client_secret_post'), client_secret: KeepOr(Type.String({ minLength: 1, maxLength: 1024 })) }),
          ]),
        ),
      }),
    ),
  }),
  Closed({ type: Type.Literal('static_bearer'), token: KeepOr(Token) }),
  Closed({
    type: Type.Literal('environment_variable'),
    secret_value: KeepOr(Type.String({ minLength: 1, maxLength: 16384 })),
    networking: KeepOr(CredentialNetworking),
    injection_location: Type.Optional(
      Closed({ body: Type.Optional(Type.Boolean()), header: Type.Optional(Type.Boolean()) }),
    ),
  }),
]);
export type CredentialAuthUpdate = Static<typeof CredentialAuthUpdate>;

/** `POST /v1/vaults/{id}/credentials/{cid}` body. */
export const CredentialUpdateRequest = Closed({
  auth: Type.Optional(CredentialAuthUpdate),
  display_name: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 255 }))),
  metadata: Type.Optional(Nullable(MetadataPatch)),
});
export type CredentialUpdateRequest = Static<typeof CredentialUpdateRequest>;

export const DeletedVaultCredential = Deleted('vault_credential_deleted');
export type DeletedVaultCredential = Static<typeof DeletedVaultCredential>;

export const CredentialListFilters = ArchivableListFilters({ vault_id: IdOf('vault') });
export type CredentialListFilters = Static<typeof CredentialListFilters>;

/** Bus forms (the tenant travels in the call context). */
export const CredentialCreateBusRequest = Closed({ vault_id: IdOf('vault'), credential: CredentialCreateRequest });
export const CredentialIdRequest = Closed({ vault_id: IdOf('vault'), credential_id: IdOf('credential') });
export const CredentialUpdateBusRequest = Closed({ vault_id: IdOf('vault'), credential_id: IdOf('credential'), update: CredentialUpdateRequest });
export const CredentialListRequest = ListRequest(CredentialListFilters);
export const CredentialListReply = ListReply(VaultCredential);

/**
 * What the fire path and the agent runtime receive: every active credential of each vault,
 * decrypted, in the create form with defaults filled in. Internal to the bus; never served
 * over HTTP. `unreadable`: the vault's data key or a ciphertext failed to authenticate (or its
 * master key is no longer configured); nothing of that vault is returned.
 */
export const ResolvedVaultState = Type.Union([ReferenceState, Type.Literal('unreadable')]);
export type ResolvedVaultState = Static<typeof ResolvedVaultState>;

export const ResolvedCredential = Closed({ id: Type.String(), display_name: Nullable(Type.String()), auth: CredentialAuthParams });
export type ResolvedCredential = Static<typeof ResolvedCredential>;

export const ResolveCredentialsRequest = Closed({ vault_ids: Type.Array(IdOf('vault'), { maxItems: 50 }) });
export const ResolveCredentialsReply = Closed({
  vaults: Type.Array(
    Closed({ id: Type.String(), state: ResolvedVaultState, credentials: Type.Array(ResolvedCredential) }),
  ),
});
export type ResolveCredentialsReply = Static<typeof ResolveCredentialsReply>;
