/**
 * Response amplification (issue 10, item 2): a list page stays within a byte budget. `limit` is
 * a maximum; a page of large items returns fewer of them with a `next_page`, never fewer than
 * one, and paging on visits every item exactly once. The service reads a page in chunks, so one
 * list never holds more than a chunk of stored rows, whatever `limit` says.
 */
import { beforeAll, expect, test } from 'bun:test';
import { LIST_READ_CHUNK, PAGE_BYTE_BUDGET } from '@shared/db/keyset-page';
import { createDeployment, useDeploymentStack, userMessage } from '../support/fixtures';
import { allPages } from '../support/pages';

const t = useDeploymentStack();
const created: string[] = [];

/** About 1.5 MiB once stored: six 262144-character text blocks. */
const largeEvents = (n: number) =>
  Array.from({ length: 6 }, (_, i) => userMessage(`${n}.${i} `.padEnd(262144, String.fromCharCode(97 + ((n + i) % 26)))));

beforeAll(async () => {
  // Older small ones first, so that more rows exist than one chunk holds.
  for (let n = 0; n < LIST_READ_CHUNK; n += 1) created.push((await createDeployment(t.api, t.world.body({ name: `old ${n}` }))).id);
  for (let n = 0; n < 12; n += 1) {
    created.push((await createDeployment(t.api, t.world.body({ name: `large ${n}`, initial_events: largeEvents(n) }))).id);
  }
  // Small ones after the large ones: they come first (newest first) and share a page.
  for (let n = 0; n < 3; n += 1) created.push((await createDeployment(t.api, t.world.body({ name: `small ${n}` }))).id);
}, 120_000);

test('every page of ?limit=100 stays within the byte budget and every deployment comes exactly once', async () => {
  const pages = await allPages(t.api, '/v1/deployments', { limit: '100' });
  for (const data of pages) expect(data.length).toBeGreaterThanOrEqual(1);
  const sizes = pages.map((data) => Buffer.byteLength(JSON.stringify(data)));
  for (const bytes of sizes) expect(bytes).toBeLessThanOrEqual(PAGE_BYTE_BUDGET);
  const seen: string[] = pages.flat().map((d: { id: string }) => d.id);
  expect(sizes.length).toBeGreaterThan(2);
  expect(seen.length).toBe(created.length);
  expect(new Set(seen)).toEqual(new Set(created));
  // The three small ones and at least one large one share the first page.
  expect(seen.slice(0, 4).every((id, i) => i === 3 || created.slice(-3).includes(id))).toBe(true);
});

test('a list reads its rows in chunks: no query of ?limit=100 fetches more than a chunk and one', async () => {
  // Observes the deployments service's own pool (nothing is faked): the rows each list query returned.
  const pool = t.stack.service('deployments').database.pool;
  const query = pool.query;
  const fetched: number[] = [];
  pool.query = (async (...args: Parameters<typeof query>) => {
    const result = await (query as (...a: unknown[]) => Promise<[unknown, unknown]>).apply(pool, args);
    const sql = typeof args[0] === 'string' ? args[0] : (args[0] as { sql: string }).sql;
    if (/^select .* from `deployments`/is.test(sql) && Array.isArray(result[0])) fetched.push(result[0].length);
    return result;
  }) as typeof query;
  try {
    const response = await t.api('GET', '/v1/deployments', { query: { limit: '100' } });
    expect(response.status).toBe(200);
    expect(response.body.next_page).toBeString();
    expect(fetched.length).toBeGreaterThan(0);
    expect(Math.max(...fetched)).toBeLessThanOrEqual(LIST_READ_CHUNK + 1);
    // Rows read and not returned: at most the rest of the chunk that crossed the budget.
    const read = fetched.reduce((a, b) => a + b, 0);
    expect(read).toBeLessThanOrEqual(response.body.data.length + LIST_READ_CHUNK);
    expect(read).toBeLessThan(created.length);
  } finally {
    pool.query = query;
  }
});
