import type { BusServer } from '@shared/bus/bus-server';
import { vaultCredentialSubjects, vaultSubjects } from '@shared/bus/subjects/vaults';
import { archiveCredential } from './handlers/archive-credential';
import { archiveVault } from './handlers/archive-vault';
import { checkVaults } from './handlers/check-vaults';
import { createCredential } from './handlers/create-credential';
import { createVault } from './handlers/create-vault';
import { deleteCredential } from './handlers/delete-credential';
import { deleteVault } from './handlers/delete-vault';
import { getCredential } from './handlers/get-credential';
import { getVault } from './handlers/get-vault';
import { listCredentials } from './handlers/list-credentials';
import { listVaults } from './handlers/list-vaults';
import { resolveCredentials } from './handlers/resolve-credentials';
import { updateCredential } from './handlers/update-credential';
import { updateVault } from './handlers/update-vault';
import type { VaultsDeps } from './deps';

/** Wires the vaults service's bus subjects to their handlers; nothing else. */
export function registerVaultHandlers(server: BusServer, deps: VaultsDeps): void {
  server
    .handle(vaultSubjects.create, createVault(deps))
    .handle(vaultSubjects.get, getVault(deps))
    .handle(vaultSubjects.list, listVaults(deps))
    .handle(vaultSubjects.update, updateVault(deps))
    .handle(vaultSubjects.archive, archiveVault(deps))
    .handle(vaultSubjects.delete, deleteVault(deps))
    .handle(vaultSubjects.check, checkVaults(deps))
    .handle(vaultCredentialSubjects.create, createCredential(deps))
    .handle(vaultCredentialSubjects.get, getCredential(deps))
    .handle(vaultCredentialSubjects.list, listCredentials(deps))
    .handle(vaultCredentialSubjects.update, updateCredential(deps))
    .handle(vaultCredentialSubjects.archive, archiveCredential(deps))
    .handle(vaultCredentialSubjects.delete, deleteCredential(deps))
    .handle(vaultCredentialSubjects.resolve, resolveCredentials(deps));
}
