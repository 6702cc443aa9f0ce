import { CheckVaultsReply, CheckVaultsRequest } from '../../schema/references';
import {
  DeletedVault,
  Vault,
  VaultCreateRequest,
  VaultIdRequest,
  VaultListReply,
  VaultListRequest,
  VaultUpdateBusRequest,
} from '../../schema/vault';
import {
  CredentialCreateBusRequest,
  CredentialIdRequest,
  CredentialListReply,
  CredentialListRequest,
  CredentialUpdateBusRequest,
  DeletedVaultCredential,
  ResolveCredentialsReply,
  ResolveCredentialsRequest,
  VaultCredential,
} from '../../schema/vault-credential';
import { defineSubject } from '../subject';

const SERVICE = 'vaults';

/** Every operation is scoped to the caller's tenant (from the call context); others' vaults are not found. */
export const vaultSubjects = {
  create: defineSubject(SERVICE, 'vaults.create', VaultCreateRequest, Vault),
  get: defineSubject(SERVICE, 'vaults.get', VaultIdRequest, Vault),
  list: defineSubject(SERVICE, 'vaults.list', VaultListRequest, VaultListReply),
  update: defineSubject(SERVICE, 'vaults.update', VaultUpdateBusRequest, Vault),
  archive: defineSubject(SERVICE, 'vaults.archive', VaultIdRequest, Vault),
  /** Shreds the vault: its wrapped data key and every credential go in one transaction. */
  delete: defineSubject(SERVICE, 'vaults.delete', VaultIdRequest, DeletedVault),
  /** Whether vault ids exist and are usable in the caller's tenant, many at once. */
  check: defineSubject(SERVICE, 'vaults.check', CheckVaultsRequest, CheckVaultsReply, { callers: ['deployments'] }),
};

export const vaultCredentialSubjects = {
  create: defineSubject(SERVICE, 'credentials.create', CredentialCreateBusRequest, VaultCredential),
  get: defineSubject(SERVICE, 'credentials.get', CredentialIdRequest, VaultCredential),
  list: defineSubject(SERVICE, 'credentials.list', CredentialListRequest, CredentialListReply),
  /** Re-seals the credential when its secret part changes; the stored secret is never returned. */
  update: defineSubject(SERVICE, 'credentials.update', CredentialUpdateBusRequest, VaultCredential),
  archive: defineSubject(SERVICE, 'credentials.archive', CredentialIdRequest, VaultCredential),
  delete: defineSubject(SERVICE, 'credentials.delete', CredentialIdRequest, DeletedVaultCredential),
  /**
   * Decrypted credentials of vaults, for the fire path only: NATS refuses this subject to every
   * identity but the deployments service's. Each vault answers ok / not_found / archived / unreadable.
   */
  resolve: defineSubject(SERVICE, 'credentials.resolve', ResolveCredentialsRequest, ResolveCredentialsReply, {
    callers: ['deployments'],
  }),
};
