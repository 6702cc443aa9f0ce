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
import { refreshCredential } from './handlers/refresh-credential';
import { resolveCredentials } from './handlers/resolve-credentials';
import { updateCredential } from './handlers/update-credential';
import { updateVault } from './handlers/update-vault';
import type { VaultsDeps } from './deps';

/** Wires the vaults service's bus subjects to their handlers; nothing else. */
export function registerVaultHandlers(server: BusServer, deps: VaultsDeps): void {
  server
    .serve(vaultSubjects, {
      create: createVault(deps),
      get: getVault(deps),
      list: listVaults(deps),
      update: updateVault(deps),
      archive: archiveVault(deps),
      delete: deleteVault(deps),
      check: checkVaults(deps),
    })
    .serve(vaultCredentialSubjects, {
      create: createCredential(deps),
      get: getCredential(deps),
      list: listCredentials(deps),
      update: updateCredential(deps),
      archive: archiveCredential(deps),
      delete: deleteCredential(deps),
      resolve: resolveCredentials(deps),
      refresh: refreshCredential(deps),
    });
}
