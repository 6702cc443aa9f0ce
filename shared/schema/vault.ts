import { Type, type Static } from '@sinclair/typebox';
import { defineEvent } from '../bus/event';
import { Closed, IdParam, ListReply, ListRequest, Metadata, MetadataPatch, Nullable, Timestamp } from './common';
import { ArchivableListFilters, Deleted, IdRequest, ReturnedResource, UpdateRequest } from './resource-shapes';

/** A vault: a named, tenant-owned container of credentials (shape of the SDK's `BetaManagedAgentsVault`). */
export const Vault = ReturnedResource('vault', {
  display_name: Type.String(),
  metadata: Metadata,
});
export type Vault = Static<typeof Vault>;

const DisplayName = Type.String({ minLength: 1, maxLength: 255 });

/** `POST /v1/vaults` body. */
export const VaultCreateRequest = Closed({ display_name: DisplayName, metadata: Type.Optional(Metadata) });
export type VaultCreateRequest = Static<typeof VaultCreateRequest>;

/** `POST /v1/vaults/{id}` body: omitted or null fields are left as they are; metadata is a patch. */
export const VaultUpdateRequest = Closed({ display_name: Type.Optional(Nullable(DisplayName)), metadata: Type.Optional(Nullable(MetadataPatch)) });
export type VaultUpdateRequest = Static<typeof VaultUpdateRequest>;

export const DeletedVault = Deleted('vault_deleted');
export type DeletedVault = Static<typeof DeletedVault>;

export const VaultListFilters = ArchivableListFilters();
export type VaultListFilters = Static<typeof VaultListFilters>;

/** Bus forms (the tenant travels in the call context). */
export const VaultIdRequest = IdRequest('vault_id', 'vault');
export const VaultUpdateBusRequest = UpdateRequest('vault_id', 'vault', VaultUpdateRequest);
export const VaultListRequest = ListRequest(VaultListFilters);
export const VaultListReply = ListReply(Vault);

export const VaultDeletedEvent = Closed({ vault_id: IdParam, deleted_at: Timestamp });

export const vaultEvents = {
  /** The vault, its data key and every credential in it are gone; references to it now dangle. */
  deleted: defineEvent('vaults', 'vaults.deleted', VaultDeletedEvent),
};
