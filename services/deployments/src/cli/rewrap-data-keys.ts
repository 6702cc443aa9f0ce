/**
 * Re-wraps every deployment's and session's data key (the one sealing its repository tokens) under
 * MASTER_KEY_ID (master key rotation, step 2; see shared/service-host/rewrap-command.ts). Safe while
 * the service serves. Reads the service's config.
 *   bun services/deployments/src/cli/rewrap-data-keys.ts [--batch-size N]
 */
import { rewrapDataKeysMain } from '@shared/service-host/rewrap-command';
import { loadDeploymentsConfig } from '../config';
import { deployments, sessions } from '../db/schema';
import { DEPLOYMENTS_MIGRATIONS } from '../start-deployments';

await rewrapDataKeysMain({
  service: 'deployments',
  loadConfig: loadDeploymentsConfig,
  migrationsFolder: DEPLOYMENTS_MIGRATIONS,
  target: [
    { table: deployments, ownerId: deployments.id, keyId: deployments.dataKeyId, wrapped: deployments.dataKeyWrapped },
    { table: sessions, ownerId: sessions.id, keyId: sessions.dataKeyId, wrapped: sessions.dataKeyWrapped },
  ],
});
