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
import { resourceOperations } from '../resource-operations';
import { defineSubjects } from '../subject';

const SERVICE = 'vaults';

/**
 * Every operation is scoped to the caller's tenant (from the call context); others' vaults are not
 * found. `delete` shreds the vault: its wrapped data key and every credential go in one transaction.
 */
export const vaultSubjects = defineSubjects(SERVICE, 'vaults', {
  ...resourceOperations({ resource: Vault, id: VaultIdRequest, create: VaultCreateRequest, list: [VaultListRequest, VaultListReply], update: VaultUpdateBusRequest, deleted: DeletedVault }),
  /** Whether vault ids exist and are usable in the caller's tenant, many at once. */
  check: [CheckVaultsRequest, CheckVaultsReply, { callers: ['deployments'] }],
});

/** `update` re-seals the credential when its secret part changes; the stored secret is never returned. */
export const vaultCredentialSubjects = defineSubjects(SERVICE, 'credentials', {
  ...resourceOperations({ resource: VaultCredential, id: CredentialIdRequest, create: CredentialCreateBusRequest, list: [CredentialListRequest, CredentialListReply], update: CredentialUpdateBusRequest, deleted: DeletedVaultCredential }),
  /**
   * Decrypted credentials of vaults, for the fire path only: NATS refuses this subject to every
   * identity but the deployments service's. Each vault answers ok / not_found / archived / unreadable.
   */
  resolve: [ResolveCredentialsRequest, ResolveCredentialsReply, { callers: ['deployments'] }],
});
