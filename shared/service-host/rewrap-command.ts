import { parseArgs } from 'node:util';
import type { MasterKeyRing } from '../crypto/master-key-ring';
import { rewrapDataKeys, type WrappedDataKeyColumns } from '../crypto/rewrap-data-keys';
import { connectDatabase, type DatabaseSettings } from '../db/connect';
import { migrateDatabase } from '../db/migrate';
import { createLogger, type LogLevel } from '../log/logger';

export interface RewrapCommandOptions {
  service: string;
  config: DatabaseSettings & { LOG_LEVEL: LogLevel; DATABASE_NAME: string; masterKeys: MasterKeyRing; REWRAP_BATCH_SIZE?: number };
  migrationsFolder: string;
  /** Where the service's wrapped data keys live; several tables (deployments and sessions) are re-wrapped one after the other. */
  target: WrappedDataKeyColumns | WrappedDataKeyColumns[];
}

/**
 * Master key rotation, step 2 of 3, for one service's data keys:
 *   1. deploy with MASTER_KEYS=old,new and MASTER_KEY_ID=new (new data keys use the new key);
 *   2. run `rewrap-data-keys` of every service that holds data keys (vaults, deployments);
 *   3. once each reports 0 failed, drop the old key from MASTER_KEYS.
 * Returns the exit code: 1 if any data key could not be re-wrapped, 2 for bad arguments.
 */
export async function runRewrapCommand(argv: string[], options: RewrapCommandOptions): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { 'batch-size': { type: 'string' } } });
  const batchSize = values['batch-size'] === undefined ? (options.config.REWRAP_BATCH_SIZE ?? 100) : Number(values['batch-size']);
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 10000) {
    process.stderr.write('rewrap-data-keys: --batch-size takes an integer from 1 to 10000\n');
    return 2;
  }
  const { config } = options;
  const logger = createLogger(config.LOG_LEVEL, { service: options.service, command: 'rewrap-data-keys' });
  const database = await connectDatabase(config, config.DATABASE_NAME);
  try {
    await migrateDatabase(database, options.migrationsFolder);
    const result = { rewrapped: 0, skipped: 0, failed: 0 };
    for (const target of Array.isArray(options.target) ? options.target : [options.target]) {
      const one = await rewrapDataKeys(database.db, config.masterKeys, target, { batchSize, logger });
      result.rewrapped += one.rewrapped;
      result.skipped += one.skipped;
      result.failed += one.failed;
    }
    console.log(
      `${options.service}: re-wrapped ${result.rewrapped} data keys under ${config.masterKeys.activeKeyId}; ${result.skipped} changed meanwhile; ${result.failed} failed`,
    );
    return result.failed > 0 ? 1 : 0;
  } finally {
    await database.close();
  }
}

/** What a service's `rewrap-data-keys` entry point names: where its config and its data keys are. */
export interface RewrapEntryPoint extends Omit<RewrapCommandOptions, 'config'> {
  /** Read inside the command, so a bad setting is reported like any other failure. */
  loadConfig: () => RewrapCommandOptions['config'];
}

/**
 * A service's `rewrap-data-keys` process: runs the command on its own arguments and exits with
 * its code; any failure (a bad setting, no database) is one readable line and exit 1, never a
 * stack trace.
 */
export async function rewrapDataKeysMain({ loadConfig, ...options }: RewrapEntryPoint): Promise<never> {
  try {
    process.exit(await runRewrapCommand(process.argv.slice(2), { ...options, config: loadConfig() }));
  } catch (err) {
    process.stderr.write(`rewrap-data-keys: ${(err as Error).message}\n`);
    process.exit(1);
  }
}
