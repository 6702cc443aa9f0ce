/**
 * List-deployments benchmark: 100,000 deployments of one tenant in a scratch database, then the
 * first page and the 100th page timed through the real bus handler (NATS request/reply into the
 * deployments service), following cursors from page to page. Not part of `bun test`.
 *
 *   bun bench/list-deployments.ts            # MYSQL_URL / NATS_URL default to the local servers
 *   ROWS=200000 LIMIT=20 bun bench/list-deployments.ts
 *   KEEP_DATABASE=true bun bench/list-deployments.ts   # leave the scratch database for EXPLAIN
 */
import { systemContext } from '@shared/bus/call-context';
import { deploymentSubjects } from '@shared/bus/subjects/deployments';
import { dropDatabase } from '@shared/db/connect';
import { newId, randomBase62 } from '@shared/ids/ids';
import { setLogSink } from '@shared/log/logger';
import type { PagePosition } from '@shared/schema/common';
import type { DeploymentListFilters } from '@shared/schema/deployment';
import { loadDeploymentsConfig } from '../services/deployments/src/config';
import { deploymentPageQuery } from '../services/deployments/src/db/deployments';
import { startDeployments } from '../services/deployments/src/start-deployments';

const ROWS = Number(process.env.ROWS ?? 100_000);
const LIMIT = Number(process.env.LIMIT ?? 20);
const BATCH = 2_000;
const REPEATS = 7;
const MYSQL_URL = process.env.MYSQL_URL ?? 'mysql://root@127.0.0.1:3306';
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';

setLogSink(() => undefined);
const id = randomBase62(8).toLowerCase();
const database = `bench_${id}_deployments`;
const tenant = { organization_id: 'org_bench', workspace_id: 'wrkspc_bench', scope: 'read_write' as const, key_id: 'key_bench' };
const ctx = systemContext('req_bench', tenant);

const runtime = await startDeployments(
  loadDeploymentsConfig({ MYSQL_URL, NATS_URL, DATABASE_NAME: database, BUS_PREFIX: `bench${id}`, HEALTH_PORT: '0', LOG_LEVEL: 'error' }),
);
const { pool } = runtime.database;

try {
  // ---- Load: multi-row INSERTs straight into the service's table.
  const agents = Array.from({ length: 50 }, () => newId('agent'));
  const events = JSON.stringify([{ type: 'user.message', content: [{ type: 'text', text: 'Summarise the overnight alerts' }] }]);
  const resources = JSON.stringify([{ type: 'file', file_id: 'file_bench', mount_path: '/mnt/session/uploads/file_bench' }]);
  const start = Date.parse('2024-01-01T00:00:00.000Z');
  const loadStarted = performance.now();
  for (let offset = 0; offset < ROWS; offset += BATCH) {
    const values: unknown[] = [];
    const rows: string[] = [];
    for (let i = offset; i < Math.min(ROWS, offset + BATCH); i++) {
      // About a minute apart, with runs of rows sharing a millisecond so id breaks ties.
      const created = new Date(start + Math.floor(i / 3) * 60_000);
      const archived = i % 10 === 0 ? created : null;
      const paused = i % 7 === 0;
      const schedule = i % 4 === 0;
      rows.push('(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)');
      values.push(
        newId('deployment'), tenant.organization_id, tenant.workspace_id, `deployment ${i}`, null,
        agents[i % agents.length], 1, 'env_bench', '[]', events, resources, '{}',
        schedule ? '0 9 * * 1-5' : null, schedule ? 'America/New_York' : null, null,
        paused ? 'paused' : 'active', paused ? '{"type":"manual"}' : null, null, 1, null, null,
        created, created, archived,
      );
    }
    await pool.query(
      `INSERT INTO deployments (id, organization_id, workspace_id, name, description, agent_id, agent_version,
        environment_id, vault_ids, initial_events, resources, metadata, schedule_expression, schedule_timezone,
        last_run_at, status, paused_reason, budget, revision, data_key_id, data_key_wrapped, created_at, updated_at,
        archived_at) VALUES ${rows.join(',')}`,
      values,
    );
  }
  await pool.query('ANALYZE TABLE deployments');
  const loadMs = performance.now() - loadStarted;
  console.log(`loaded ${ROWS.toLocaleString('en')} deployments of one tenant in ${(loadMs / 1000).toFixed(1)} s (${database})`);

  // ---- Time pages through the bus handler.
  const call = (filters: DeploymentListFilters, after: PagePosition | null) =>
    runtime.client.call(deploymentSubjects.list, ctx, { filters, limit: LIMIT, after });

  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  async function timed(filters: DeploymentListFilters, after: PagePosition | null) {
    const samples: number[] = [];
    for (let r = 0; r < REPEATS; r++) {
      const t = performance.now();
      await call(filters, after);
      samples.push(performance.now() - t);
    }
    return { median: median(samples), min: Math.min(...samples) };
  }

  const scenarios: Array<[string, DeploymentListFilters]> = [
    ['default (archived excluded)', { include_archived: false }],
    ['include_archived=true', { include_archived: true }],
    ['status=paused', { include_archived: false, status: 'paused' }],
    ['agent_id', { include_archived: false, agent_id: agents[7] }],
  ];
  await call({ include_archived: false }, null); // warm the connection and the statement path
  console.log(`\npage size ${LIMIT}; each figure is the median (min) of ${REPEATS} bus round trips\n`);
  console.log('filters                         page 1            page 100          walk to page 100');
  for (const [name, filters] of scenarios) {
    const first = await timed(filters, null);
    let after: PagePosition | null = null;
    const walkStarted = performance.now();
    for (let page = 1; page < 100; page++) {
      const reply = await call(filters, after);
      if (!reply.next) throw new Error(`${name}: ran out of pages at ${page}`);
      after = reply.next;
    }
    const walkMs = performance.now() - walkStarted;
    const hundredth = await timed(filters, after);
    const fmt = (t: { median: number; min: number }) => `${t.median.toFixed(2)} ms (${t.min.toFixed(2)})`.padEnd(18);
    console.log(`${name.padEnd(32)}${fmt(first)}${fmt(hundredth)}${(walkMs / 99).toFixed(2)} ms/page`);
  }

  // ---- The plan of a deep page, as the service sends it: a range read on the filter's index.
  let after: PagePosition | null = null;
  for (let page = 1; page < 100; page++) after = (await call({ include_archived: false }, after)).next;
  const query = deploymentPageQuery(runtime.database.db, tenant, { include_archived: false }, LIMIT, after).toSQL();
  const [plan] = await pool.query(`EXPLAIN ${query.sql}`, query.params);
  console.log('\nEXPLAIN of page 100 (default filters), the service\'s own query:');
  for (const row of plan as Array<Record<string, unknown>>) {
    console.log(`  type=${row.type} key=${row.key} rows(estimate)=${row.rows} Extra=${row.Extra}`);
  }
} finally {
  await runtime.stop();
  if (process.env.KEEP_DATABASE === 'true') console.log(`kept ${database}`);
  else await dropDatabase({ MYSQL_URL, MYSQL_POOL_SIZE: 1 }, database);
}
