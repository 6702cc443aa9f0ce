import * as references from '../../schema/references';
import * as vault from '../../schema/vault';
import * as vaultCredential from '../../schema/vault-credential';
import * as validation from '../../schema/vault-credential-validation';
import { resourceOperations } from '../resource-operations';
import { defineSubjects } from '../subject';

const SERVICE = 'vaults';

/**
 * Every operation is scoped to the caller's tenant (from the call context); others' vaults are not
 * found. `delete` shreds the vault: its wrapped data key and every credential go in one transaction.
 */
export const vaultSubjects = defineSubjects(SERVICE, 'vaults', {
  ...resourceOperations({ resource: vault.Vault, id: vault.VaultIdRequest, create: vault.VaultCreateRequest, list: [vault.VaultListRequest, vault.VaultListReply], update: vault.VaultUpdateBusRequest, deleted: vault.DeletedVault }),
  /** Whether vault ids exist and are usable in the caller's tenant, many at once. */
  check: [references.CheckVaultsRequest, references.CheckVaultsReply, { callers: ['deployments'] }],
});

/** `update` re-seals the credential when its secret part changes; the stored secret is never returned. */
export const vaultCredentialSubjects = defineSubjects(SERVICE, 'credentials', {
  ...resourceOperations({ resource: vaultCredential.VaultCredential, id: vaultCredential.CredentialIdRequest, create: vaultCredential.CredentialCreateBusRequest, list: [vaultCredential.CredentialListRequest, vaultCredential.CredentialListReply], update: vaultCredential.CredentialUpdateBusRequest, deleted: vaultCredential.DeletedVaultCredential }),
  /** The runtime reads a credential's kind and state (no secret) to validate it. */
  get: [vaultCredential.CredentialIdRequest, vaultCredential.VaultCredential, { callers: ['gateway', 'runtime'] }],
  /**
   * Decrypted credentials of vaults, for the fire path and the runtime (its MCP connections'
   * bearer tokens, a cloud session's environment variables): NATS refuses this subject to every
   * other identity. Each vault answers ok / not_found / archived / unreadable.
   */
  resolve: [vaultCredential.ResolveCredentialsRequest, vaultCredential.ResolveCredentialsReply, { callers: ['deployments', 'runtime'] }],
  /**
   * An `mcp_oauth` credential's refresh-token exchange, done here under the vault's row lock and
   * stored sealed: the runtime asks when the access token expired or its MCP server refused it.
   * The reply holds the new access token, so the runtime alone may ask.
   */
  refresh: [validation.RefreshCredentialRequest, validation.RefreshCredentialReply, { callers: ['runtime'] }],
});
