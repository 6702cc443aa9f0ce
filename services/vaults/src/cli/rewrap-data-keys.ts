/**
 * Master key rotation, step 2 of 3 (run by an operator or a Helm hook):
 *   1. deploy with MASTER_KEYS=old,new and MASTER_KEY_ID=new (new vaults use the new key);
 *   2. bun services/vaults/src/cli/rewrap-data-keys.ts [--batch-size N]
 *      re-wraps every vault data key under MASTER_KEY_ID, safe while the service serves;
 *   3. once it reports 0 failed, drop the old key from MASTER_KEYS.
 * Reads the same configuration as the service. Exits 1 if any data key could not be re-wrapped.
 */
import { parseArgs } from 'node:util';
import { connectDatabase } from '../../../../shared/db/connect';
import { migrateDatabase } from '../../../../shared/db/migrate';
import { createLogger } from '../../../../shared/log/logger';
import { loadVaultsConfig } from '../config';
import { rewrapDataKeys } from '../db/rewrap-data-keys';
import { VAULTS_MIGRATIONS } from '../start-vaults';

async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { 'batch-size': { type: 'string' } } });
  const config = loadVaultsConfig();
  const batchSize = values['batch-size'] === undefined ? config.REWRAP_BATCH_SIZE : Number(values['batch-size']);
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 10000) {
    process.stderr.write('rewrap-data-keys: --batch-size takes an integer from 1 to 10000\n');
    return 2;
  }
  const logger = createLogger(config.LOG_LEVEL, { service: 'vaults', command: 'rewrap-data-keys' });
  const database = await connectDatabase(config, config.DATABASE_NAME);
  try {
    await migrateDatabase(database, VAULTS_MIGRATIONS);
    const result = await rewrapDataKeys(database.db, config.masterKeys, { batchSize, logger });
    console.log(
      `re-wrapped ${result.rewrapped} data keys under ${config.masterKeys.activeKeyId}; ${result.skipped} changed meanwhile; ${result.failed} failed`,
    );
    return result.failed > 0 ? 1 : 0;
  } finally {
    await database.close();
  }
}

try {
  process.exit(await main(process.argv.slice(2)));
} catch (err) {
  process.stderr.write(`rewrap-data-keys: ${(err as Error).message}\n`);
  process.exit(1);
}
