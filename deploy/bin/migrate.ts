/**
 * Applies every service's committed migrations (the Helm pre-install/pre-upgrade Job runs this;
 * services also migrate at start-up under a lock, so this is the normal path, not the only one).
 *   bun deploy/bin/migrate.ts              all services, databases agents_<service>
 *   bun deploy/bin/migrate.ts gateway ...  only these
 * DATABASE_NAME_<SERVICE> (e.g. DATABASE_NAME_GATEWAY) overrides a database name.
 */
import { join } from 'node:path';
import { CommonConfig, DatabaseConfig, DatabaseName, loadConfig } from '@shared/config/load-config';
import { connectDatabase } from '@shared/db/connect';
import { migrateDatabase } from '@shared/db/migrate';
import { DATABASE_SERVICES, defaultDatabaseName, migrationsFolder, type DatabaseServiceName } from './services';

const root = join(import.meta.dir, '..', '..');

async function main(): Promise<void> {
  const config = loadConfig({ ...DatabaseConfig, LOG_LEVEL: CommonConfig.LOG_LEVEL, NODE_ENV: CommonConfig.NODE_ENV });
  const requested = process.argv.slice(2);
  const unknown = requested.filter((s) => !(DATABASE_SERVICES as readonly string[]).includes(s));
  if (unknown.length > 0) throw new Error(`unknown service(s): ${unknown.join(', ')}; known: ${DATABASE_SERVICES.join(', ')}`);
  const services = (requested.length > 0 ? requested : DATABASE_SERVICES) as DatabaseServiceName[];
  for (const service of services) {
    const variable = `DATABASE_NAME_${service.toUpperCase()}`;
    const name = loadConfig({ [variable]: DatabaseName(defaultDatabaseName(service)) })[variable] as string;
    const database = await connectDatabase(config, name);
    try {
      await migrateDatabase(database, join(root, migrationsFolder(service)));
      console.log(`migrated ${service} (${name})`);
    } finally {
      await database.close();
    }
  }
}

main().catch((err) => {
  console.error(`migrate: ${(err as Error).message}`);
  process.exit(1);
});
