/**
 * The deployments migration that puts a session's log end on its row (`sessions.last_sequence`)
 * backfills the sessions already stored: each takes its log's last sequence, 0 for an empty log.
 * A database at the migration before it gets rows, then today's migrations.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectDatabase, dropDatabase, type DatabaseHandle } from '@shared/db/connect';
import { migrateDatabase } from '@shared/db/migrate';
import { randomBase62 } from '@shared/ids/ids';
import { infrastructure } from '../support/infrastructure';

const TAG = '0007_session_last_sequence';
const current = new URL('../../services/deployments/migrations', import.meta.url).pathname;
const workDir = mkdtempSync(join(tmpdir(), 'last-sequence-migration-'));
const settings = { MYSQL_URL: '', MYSQL_POOL_SIZE: 2 };
let handle: DatabaseHandle;

/** Today's migration folder cut to the migrations before TAG. */
function before(): string {
  const folder = join(workDir, 'before');
  mkdirSync(join(folder, 'meta'), { recursive: true });
  const journal = JSON.parse(readFileSync(join(current, 'meta', '_journal.json'), 'utf8')) as { entries: Array<{ tag: string }> };
  const at = journal.entries.findIndex((entry) => entry.tag === TAG);
  expect(at).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, at);
  for (const { tag } of journal.entries) writeFileSync(join(folder, `${tag}.sql`), readFileSync(join(current, `${tag}.sql`)));
  writeFileSync(join(folder, 'meta', '_journal.json'), JSON.stringify(journal));
  return folder;
}

/** A session row as the schema before TAG has it (the columns it requires). */
const sessionInsert =
  'INSERT INTO sessions (id, organization_id, workspace_id, agent_id, agent_version, environment_id, vault_ids, resources, initial_events, status, metadata, created_at, updated_at) ' +
  "VALUES (?, 'org_1', 'wrk_1', 'agent_1', 1, 'env_1', '[]', '[]', '[]', 'idle', '{}', NOW(3), NOW(3))";

beforeAll(async () => {
  settings.MYSQL_URL = (await infrastructure()).mysqlUrl;
  handle = await connectDatabase(settings, `t_${randomBase62(8).toLowerCase()}_last_sequence`);
});

afterAll(async () => {
  await handle?.close().catch(() => undefined);
  if (handle) await dropDatabase(settings, handle.name).catch(() => undefined);
  rmSync(workDir, { recursive: true, force: true });
});

test('every stored session takes its log\'s last sequence, an empty log 0', async () => {
  await migrateDatabase(handle, before());
  for (const id of ['sesn_logged', 'sesn_empty', 'sesn_other']) await handle.pool.query(sessionInsert, [id]);
  const event = (sessionId: string, sequence: number) =>
    handle.pool.query(
      "INSERT INTO session_events (session_id, sequence, id, type, processed_at, body) VALUES (?, ?, ?, 'user.message', NOW(3), '{}')",
      [sessionId, sequence, `sevt_${sessionId}_${sequence}`],
    );
  for (const sequence of [1, 2, 3, 4, 5]) await event('sesn_logged', sequence);
  await event('sesn_other', 1);
  await migrateDatabase(handle, current);
  const [rows] = await handle.pool.query('SELECT id, last_sequence FROM sessions ORDER BY id');
  expect(rows as unknown[]).toEqual([
    { id: 'sesn_empty', last_sequence: 0 },
    { id: 'sesn_logged', last_sequence: 5 },
    { id: 'sesn_other', last_sequence: 1 },
  ]);
});
