/**
 * Each service's migrations were squashed into one drizzle-kit baseline. Two promises hold that:
 *  - the baseline alone builds exactly the schema the old chain built (SHOW CREATE TABLE of every table);
 *  - a database that applied the whole old chain is left alone by the baseline (its journal `when`
 *    equals the old chain's last one, and drizzle's migrator only runs a migration whose `when` is
 *    greater than the last applied `created_at`), while migrations written after it still apply,
 *    so it ends with the schema a new database gets from all of today's migrations.
 * The scheduler's second migration drops the outbox tables its old chain created and nothing used.
 * The old chain is the released one, from test/fixtures/migrations-0.2.0.tar.gz.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectDatabase, dropDatabase, type DatabaseHandle } from '@shared/db/connect';
import { migrateDatabase } from '@shared/db/migrate';
import { randomBase62 } from '@shared/ids/ids';
import { infrastructure } from '../support/infrastructure';

const SERVICES = ['gateway', 'catalog', 'deployments', 'vaults', 'scheduler'] as const;
type Service = (typeof SERVICES)[number];
/** Tables of the old chain that the new migrations drop on purpose. */
const DROPPED: Record<Service, string[]> = {
  gateway: [],
  catalog: [],
  deployments: [],
  vaults: [],
  scheduler: ['outbox', 'outbox_dead_letters'],
};

const root = new URL('../..', import.meta.url).pathname;
const workDir = mkdtempSync(join(tmpdir(), 'migrations-baseline-'));
const runId = randomBase62(8).toLowerCase();
const settings = { MYSQL_URL: '', MYSQL_POOL_SIZE: 2 };
const open: DatabaseHandle[] = [];

/**
 * The migration folders the 0.2.0 image applies, as released (`git archive` of commit 507825c,
 * the last one that changed them): a fixture rather than `git show`, so the test runs in a
 * shallow clone too, and a binary one, so the old SQL is not a second copy of the tree's source.
 */
const OLD_CHAIN_ARCHIVE = join(root, 'test', 'fixtures', 'migrations-0.2.0.tar.gz');
let extracted = false;

/** The service's migration folder as the 0.2.0 image has it; returns its path. */
function oldChainFolder(service: Service): string {
  const target = join(workDir, 'old');
  if (!extracted) {
    mkdirSync(target, { recursive: true });
    const result = Bun.spawnSync(['tar', '-xzf', OLD_CHAIN_ARCHIVE, '-C', target]);
    if (result.exitCode !== 0) throw new Error(`extracting ${OLD_CHAIN_ARCHIVE} failed: ${result.stderr.toString()}`);
    extracted = true;
  }
  return join(target, 'services', service, 'migrations');
}

/** Today's folder cut to its first migration, the baseline. */
function baselineFolder(service: Service): string {
  const folder = join(workDir, 'baseline', service);
  mkdirSync(join(folder, 'meta'), { recursive: true });
  const current = join(root, 'services', service, 'migrations');
  const journal = JSON.parse(readFileSync(join(current, 'meta', '_journal.json'), 'utf8')) as { entries: Array<{ tag: string }> };
  journal.entries = journal.entries.slice(0, 1);
  writeFileSync(join(folder, `${journal.entries[0]!.tag}.sql`), readFileSync(join(current, `${journal.entries[0]!.tag}.sql`)));
  writeFileSync(join(folder, 'meta', '_journal.json'), JSON.stringify(journal));
  return folder;
}

/** A copy of today's folder plus one migration written after it, as the next release would add. */
function laterMigrationFolder(service: Service): string {
  const folder = join(workDir, 'later', service);
  mkdirSync(join(folder, 'meta'), { recursive: true });
  const current = join(root, 'services', service, 'migrations');
  const journal = JSON.parse(readFileSync(join(current, 'meta', '_journal.json'), 'utf8')) as {
    entries: Array<{ idx: number; version: string; when: number; tag: string; breakpoints: boolean }>;
  };
  for (const entry of journal.entries) writeFileSync(join(folder, `${entry.tag}.sql`), readFileSync(join(current, `${entry.tag}.sql`)));
  const last = journal.entries.at(-1)!;
  const tag = `${String(last.idx + 1).padStart(4, '0')}_later`;
  journal.entries.push({ ...last, idx: last.idx + 1, when: last.when + 1000, tag });
  writeFileSync(join(folder, `${tag}.sql`), 'CREATE TABLE `later_probe` (`id` int NOT NULL, CONSTRAINT `later_probe_id` PRIMARY KEY(`id`));');
  writeFileSync(join(folder, 'meta', '_journal.json'), JSON.stringify(journal));
  return folder;
}

async function database(label: string, service: Service): Promise<DatabaseHandle> {
  const handle = await connectDatabase(settings, `t_${runId}_mig_${label}_${service}`);
  open.push(handle);
  return handle;
}

/** SHOW CREATE TABLE of every table but drizzle's own, without the AUTO_INCREMENT counter. */
async function schemaOf(handle: DatabaseHandle): Promise<Record<string, string>> {
  const [tables] = await handle.pool.query('SHOW TABLES');
  const out: Record<string, string> = {};
  for (const row of tables as Array<Record<string, string>>) {
    const table = Object.values(row)[0]!;
    if (table === '__drizzle_migrations') continue;
    const [created] = await handle.pool.query(`SHOW CREATE TABLE \`${table}\``);
    out[table] = (created as Array<Record<string, string>>)[0]!['Create Table']!.replace(/ AUTO_INCREMENT=\d+/, '');
  }
  return out;
}

async function appliedMigrations(handle: DatabaseHandle): Promise<Array<{ hash: string; created_at: string }>> {
  const [rows] = await handle.pool.query('SELECT hash, CAST(created_at AS CHAR) AS created_at FROM __drizzle_migrations ORDER BY id');
  return rows as Array<{ hash: string; created_at: string }>;
}

const without = (schema: Record<string, string>, tables: string[]) =>
  Object.fromEntries(Object.entries(schema).filter(([table]) => !tables.includes(table)));

beforeAll(async () => {
  settings.MYSQL_URL = (await infrastructure()).mysqlUrl;
});

afterAll(async () => {
  for (const handle of open) {
    await handle.close().catch(() => undefined);
    await dropDatabase(settings, handle.name).catch(() => undefined);
  }
  rmSync(workDir, { recursive: true, force: true });
});

describe.each(SERVICES)('%s migrations', (service) => {
  const current = join(root, 'services', service, 'migrations');
  let oldChain: Record<string, string>;
  let baseline: Record<string, string>;
  let fresh: Record<string, string>;
  let upgraded: DatabaseHandle;
  let oldApplied: Array<{ hash: string; created_at: string }>;

  beforeAll(async () => {
    const [oldDb, baselineDb, newDb] = await Promise.all([database('old', service), database('base', service), database('new', service)]);
    upgraded = oldDb;
    await Promise.all([
      migrateDatabase(oldDb, oldChainFolder(service)),
      migrateDatabase(baselineDb, baselineFolder(service)),
      migrateDatabase(newDb, current),
    ]);
    oldChain = await schemaOf(oldDb);
    oldApplied = await appliedMigrations(oldDb);
    baseline = await schemaOf(baselineDb);
    fresh = await schemaOf(newDb);
  });

  test('the baseline builds the schema the old chain built', () => {
    expect(Object.keys(oldChain).length).toBeGreaterThan(0);
    for (const table of DROPPED[service]) expect(Object.keys(oldChain)).toContain(table);
    // Tables dropped on purpose are not in the baseline either (a later migration drops them from old databases).
    expect(baseline).toEqual(without(oldChain, DROPPED[service]));
  });

  test('a database at the end of the old chain gets only the migrations after the baseline, and ends as a new one', async () => {
    await migrateDatabase(upgraded, current);
    const schema = await schemaOf(upgraded);
    for (const table of DROPPED[service]) expect(Object.keys(schema)).not.toContain(table);
    expect(schema).toEqual(fresh);
    const applied = await appliedMigrations(upgraded);
    // The baseline itself is never recorded there; only the migrations after it are.
    expect(applied.slice(0, oldApplied.length)).toEqual(oldApplied);
    const journal = JSON.parse(readFileSync(join(current, 'meta', '_journal.json'), 'utf8')) as { entries: Array<{ when: number }> };
    expect(applied.slice(oldApplied.length).map((row) => Number(row.created_at))).toEqual(
      journal.entries.slice(1).map((entry) => entry.when),
    );
    // Running it again (a second replica starting) changes nothing.
    await migrateDatabase(upgraded, current);
    expect(await appliedMigrations(upgraded)).toEqual(applied);
  });

  test('a migration written after the baseline applies to an upgraded database', async () => {
    await migrateDatabase(upgraded, laterMigrationFolder(service));
    const schema = await schemaOf(upgraded);
    expect(Object.keys(schema)).toContain('later_probe');
    expect(without(schema, ['later_probe'])).toEqual(fresh);
  });
});
