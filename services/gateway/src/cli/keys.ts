/**
 * Operator CLI for API keys (keys are never managed through the public API):
 *   bun run keys create --org ORG --workspace WS [--scope read_only] [--name NAME]
 *   bun run keys list
 *   bun run keys revoke KEY_ID
 * `create` prints the new key as the last line of standard output; it is never shown again.
 */
import { parseArgs } from 'node:util';
import { connectDatabase } from '@shared/db/connect';
import { migrateDatabase } from '@shared/db/migrate';
import { systemClock } from '@shared/time/clock';
import { ApiKeyStore } from '../auth/api-key-store';
import { loadGatewayConfig } from '../config';
import { GATEWAY_MIGRATIONS } from '../start-gateway';

const USAGE = 'usage: keys create --org ORG --workspace WS [--scope read_write|read_only] [--name NAME] | keys list | keys revoke KEY_ID';

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      org: { type: 'string' },
      workspace: { type: 'string' },
      scope: { type: 'string', default: 'read_write' },
      name: { type: 'string' },
    },
  });
  const [command, ...rest] = positionals;
  const config = loadGatewayConfig();
  const database = await connectDatabase(config, config.DATABASE_NAME);
  try {
    await migrateDatabase(database, GATEWAY_MIGRATIONS);
    const store = new ApiKeyStore(database.db, systemClock, 0);
    if (command === 'create') {
      if (!values.org || !values.workspace) return fail('--org and --workspace are required');
      if (!/^[A-Za-z0-9_-]{1,64}$/.test(values.org) || !/^[A-Za-z0-9_-]{1,64}$/.test(values.workspace)) {
        return fail('--org and --workspace take 1-64 letters, digits, _ or -');
      }
      if (values.scope !== 'read_write' && values.scope !== 'read_only') return fail('--scope must be read_write or read_only');
      const key = await store.create({
        organizationId: values.org,
        workspaceId: values.workspace,
        scope: values.scope,
        name: values.name,
      });
      console.log(`created ${key.id} for ${values.org}/${values.workspace} (${values.scope}); the key is shown once:`);
      console.log(key.secret);
      return 0;
    }
    if (command === 'list') {
      for (const k of await store.list()) {
        console.log(
          [k.id, `${k.organizationId}/${k.workspaceId}`, k.scope, `...${k.hint}`, k.createdAt.toISOString(), k.revokedAt ? `revoked ${k.revokedAt.toISOString()}` : 'active', k.name ?? ''].join('\t'),
        );
      }
      return 0;
    }
    if (command === 'revoke') {
      if (rest.length !== 1) return fail('revoke takes one KEY_ID');
      if (!(await store.revoke(rest[0]))) return fail(`no active key ${rest[0]}`);
      console.log(`revoked ${rest[0]}`);
      return 0;
    }
    return fail(`unknown command ${command ?? ''}`.trim());
  } finally {
    await database.close();
  }
}

function fail(message: string): number {
  console.error(`keys: ${message}\n${USAGE}`);
  return 2;
}

main(process.argv.slice(2))
  .then((code) => process.exit(code))
  .catch((err) => {
    console.error(`keys: ${(err as Error).message}`);
    process.exit(1);
  });
