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
import { defineSubjects } from '../subject';

const SERVICE = 'vaults';

/** Every operation is scoped to the caller's tenant (from the call context); others' vaults are not found. */
export const vaultSubjects = defineSubjects(SERVICE, 'vaults', {
  create: [VaultCreateRequest, Vault],
  get: [VaultIdRequest, Vault],
  list: [VaultListRequest, VaultListReply],
  update: [VaultUpdateBusRequest, Vault],
  archive: [VaultIdRequest, Vault],
  /** Shreds the vault: its wrapped data key and every credential go in one transaction. */
  delete: [VaultIdRequest, DeletedVault],
  /** Whether vault ids exist and are usable in the caller's tenant, many at once. */
  check: [CheckVaultsRequest, CheckVaultsReply, { callers: ['deployments'] }],
});

export const vaultCredentialSubjects = defineSubjects(SERVICE, 'credentials', {
  create: [CredentialCreateBusRequest, VaultCredential],
  get: [CredentialIdRequest, VaultCredential],
  list: [CredentialListRequest, CredentialListReply],
  /** Re-seals the credential when its secret part changes; the stored secret is never returned. */
  update: [CredentialUpdateBusRequest, VaultCredential],
  archive: [CredentialIdRequest, VaultCredential],
  delete: [CredentialIdRequest, DeletedVaultCredential],
  /**
   * Decrypted credentials of vaults, for the fire path only: NATS refuses this subject to every
   * identity but the deployments service's. Each vault answers ok / not_found / archived / unreadable.
   */
  resolve: [ResolveCredentialsRequest, ResolveCredentialsReply, { callers: ['deployments'] }],
});
