/**
 * Re-wraps every vault data key under MASTER_KEY_ID (master key rotation, step 2; see
 * shared/service-host/rewrap-command.ts). Safe while the service serves. Reads the service's config.
 *   bun services/vaults/src/cli/rewrap-data-keys.ts [--batch-size N]
 */
import { rewrapDataKeysMain } from '@shared/service-host/rewrap-command';
import { loadVaultsConfig } from '../config';
import { vaults } from '../db/schema';
import { VAULTS_MIGRATIONS } from '../start-vaults';

await rewrapDataKeysMain({
  service: 'vaults',
  loadConfig: loadVaultsConfig,
  migrationsFolder: VAULTS_MIGRATIONS,
  target: { table: vaults, ownerId: vaults.id, keyId: vaults.dataKeyId, wrapped: vaults.wrappedDataKey },
});
