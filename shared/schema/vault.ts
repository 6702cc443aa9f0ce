import { Type, type Static } from '@sinclair/typebox';
import { defineEvent } from '../bus/event';
import { IdOf, IdParam, ListReply, ListRequest, Metadata, MetadataPatch, Nullable, Timestamp } from './common';

/** A vault: a named, tenant-owned container of credentials (shape of the SDK's `BetaManagedAgentsVault`). */
export const Vault = Type.Object(
  {
    type: Type.Literal('vault'),
    id: Type.String(),
    display_name: Type.String(),
    metadata: Metadata,
    created_at: Timestamp,
    updated_at: Timestamp,
    archived_at: Nullable(Timestamp),
  },
  { additionalProperties: false },
);
export type Vault = Static<typeof Vault>;

const DisplayName = Type.String({ minLength: 1, maxLength: 255 });

/** `POST /v1/vaults` body. */
export const VaultCreateRequest = Type.Object(
  { display_name: DisplayName, metadata: Type.Optional(Metadata) },
  { additionalProperties: false },
);
export type VaultCreateRequest = Static<typeof VaultCreateRequest>;

/** `POST /v1/vaults/{id}` body: omitted or null fields are left as they are; metadata is a patch. */
export const VaultUpdateRequest = Type.Object(
  { display_name: Type.Optional(Nullable(DisplayName)), metadata: Type.Optional(Nullable(MetadataPatch)) },
  { additionalProperties: false },
);
export type VaultUpdateRequest = Static<typeof VaultUpdateRequest>;

export const DeletedVault = Type.Object(
  { type: Type.Literal('vault_deleted'), id: Type.String() },
  { additionalProperties: false },
);
export type DeletedVault = Static<typeof DeletedVault>;

export const VaultListFilters = Type.Object({ include_archived: Type.Boolean() }, { additionalProperties: false });
export type VaultListFilters = Static<typeof VaultListFilters>;

/** Bus forms (the tenant travels in the call context). */
export const VaultIdRequest = Type.Object({ vault_id: IdOf('vault') }, { additionalProperties: false });
export const VaultUpdateBusRequest = Type.Object(
  { vault_id: IdOf('vault'), update: VaultUpdateRequest },
  { additionalProperties: false },
);
export const VaultListRequest = ListRequest(VaultListFilters);
export const VaultListReply = ListReply(Vault);

export const VaultDeletedEvent = Type.Object(
  { vault_id: IdParam, deleted_at: Timestamp },
  { additionalProperties: false },
);

export const vaultEvents = {
  /** The vault, its data key and every credential in it are gone; references to it now dangle. */
  deleted: defineEvent('vaults', 'vaults.deleted', VaultDeletedEvent),
};
