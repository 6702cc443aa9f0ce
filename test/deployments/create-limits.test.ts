/**
 * Every row of the interface's Limits table, at the boundary (accepted) and one past it
 * (400 naming the field), through the real gateway. Where the boundary value is an id that
 * cannot exist (a 128-character file id), "accepted" means it passed validation and reached
 * the reference check: 404, never 400.
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import {
  createMemoryStore,
  createVault,
  repository,
  useDeploymentStack,
  userMessage,
} from '../support/fixtures';
import { expectInvalidRequest } from '../support/expect';

const t = useDeploymentStack();
let memoryStoreId: string;
let vaultIds: string[];

beforeAll(async () => {
  memoryStoreId = (await createMemoryStore(t.api)).id;
  vaultIds = (await Promise.all(Array.from({ length: 51 }, () => createVault(t.api)))).map((v) => v.id);
});

const s = (n: number, c = 'a') => c.repeat(n);
const cron = (expression: string, timezone = 'UTC') => ({ schedule: { type: 'cron', expression, timezone } });
/** A valid cron expression of exactly `length` characters (every minute listed, then padding). */
function cronOfLength(length: number): string {
  const minutes = Array.from({ length: 60 }, (_, i) => i).join(',');
  const tail = '* * * *';
  return `${minutes}${' '.repeat(length - minutes.length - tail.length)}${tail}`;
}
const outcome = (fields: Record<string, unknown>) => ({
  type: 'user.define_outcome',
  description: 'Write the report',
  rubric: { type: 'text', content: 'Complete and correct' },
  ...fields,
});
const events = (n: number) => Array.from({ length: n }, (_, i) => userMessage(`message ${i}`));
const metadata = (pairs: number, key = (i: number) => `k${i}`, value = 'v') =>
  Object.fromEntries(Array.from({ length: pairs }, (_, i) => [key(i), value]));

interface LimitRow {
  limit: string;
  /** The request changes at the boundary, and the status expected there. */
  ok: () => Record<string, unknown>;
  okStatus?: number;
  /** One past the boundary: 400 whose message starts with `path`. */
  past: () => Record<string, unknown>;
  path: string;
}

const LIMITS: LimitRow[] = [
  { limit: 'name min 1', ok: () => ({ name: 'n' }), past: () => ({ name: '' }), path: 'name:' },
  { limit: 'name max 256', ok: () => ({ name: s(256) }), past: () => ({ name: s(257) }), path: 'name:' },
  { limit: 'description max 2048', ok: () => ({ description: s(2048) }), past: () => ({ description: s(2049) }), path: 'description:' },
  { limit: 'environment_id min 1', ok: () => ({ environment_id: 'e' }), okStatus: 404, past: () => ({ environment_id: '' }), path: 'environment_id:' },
  { limit: 'environment_id max 128', ok: () => ({ environment_id: s(128) }), okStatus: 404, past: () => ({ environment_id: s(129) }), path: 'environment_id:' },
  { limit: 'agent id string min 1', ok: () => ({ agent: 'a' }), okStatus: 404, past: () => ({ agent: '' }), path: 'agent:' },
  { limit: 'agent id string max 128', ok: () => ({ agent: s(128) }), okStatus: 404, past: () => ({ agent: s(129) }), path: 'agent:' },
  { limit: 'agent.id min 1', ok: () => ({ agent: { type: 'agent', id: 'a' } }), okStatus: 404, past: () => ({ agent: { type: 'agent', id: '' } }), path: 'agent.id:' },
  { limit: 'agent.id max 128', ok: () => ({ agent: { type: 'agent', id: s(128) } }), okStatus: 404, past: () => ({ agent: { type: 'agent', id: s(129) } }), path: 'agent.id:' },
  { limit: 'agent.version min 1', ok: () => ({ agent: { type: 'agent', id: t.world.agent.id, version: 1 } }), past: () => ({ agent: { type: 'agent', id: t.world.agent.id, version: 0 } }), path: 'agent.version:' },
  { limit: 'agent.version int32', ok: () => ({ agent: { type: 'agent', id: t.world.agent.id, version: 2147483647 } }), okStatus: 404, past: () => ({ agent: { type: 'agent', id: t.world.agent.id, version: 2147483648 } }), path: 'agent.version:' },
  { limit: 'vault_ids max 50', ok: () => ({ vault_ids: vaultIds.slice(0, 50) }), past: () => ({ vault_ids: vaultIds }), path: 'vault_ids:' },
  { limit: 'initial_events min 1', ok: () => ({ initial_events: events(1) }), past: () => ({ initial_events: [] }), path: 'initial_events:' },
  { limit: 'initial_events max 50', ok: () => ({ initial_events: events(50) }), past: () => ({ initial_events: events(51) }), path: 'initial_events:' },
  {
    limit: 'resources max 500',
    ok: () => ({ resources: Array.from({ length: 500 }, (_, i) => repository({ mount_path: `/workspace/r${i}` })) }),
    past: () => ({ resources: Array.from({ length: 501 }, (_, i) => repository({ mount_path: `/workspace/r${i}` })) }),
    path: 'resources:',
  },
  { limit: 'metadata max 16 pairs', ok: () => ({ metadata: metadata(16) }), past: () => ({ metadata: metadata(17) }), path: 'metadata:' },
  { limit: 'metadata key max 64', ok: () => ({ metadata: metadata(1, () => s(64)) }), past: () => ({ metadata: metadata(1, () => s(65)) }), path: 'metadata:' },
  { limit: 'metadata value max 512', ok: () => ({ metadata: metadata(1, undefined, s(512)) }), past: () => ({ metadata: metadata(1, undefined, s(513)) }), path: 'metadata.k0:' },
  { limit: 'cron expression min 1', ok: () => cron('* * * * *'), past: () => cron(''), path: 'schedule.expression:' },
  { limit: 'cron expression max 256', ok: () => cron(cronOfLength(256)), past: () => cron(cronOfLength(257)), path: 'schedule.expression:' },
  { limit: 'cron timezone min 1', ok: () => cron('0 9 * * *', 'UTC'), past: () => cron('0 9 * * *', ''), path: 'schedule.timezone:' },
  { limit: 'repository url min 1', ok: () => ({ resources: [repository({ url: 'https://h', mount_path: '/workspace/w' })] }), past: () => ({ resources: [repository({ url: '' })] }), path: 'resources.0.url:' },
  { limit: 'repository url max 2048', ok: () => ({ resources: [repository({ url: `https://github.com/acme/${s(2048 - 24)}` })] }), past: () => ({ resources: [repository({ url: `https://github.com/acme/${s(2049 - 24)}` })] }), path: 'resources.0.url:' },
  { limit: 'authorization_token min 1', ok: () => ({ resources: [repository({ authorization_token: 't' })] }), past: () => ({ resources: [repository({ authorization_token: '' })] }), path: 'resources.0.authorization_token:' },
  { limit: 'authorization_token max 4096', ok: () => ({ resources: [repository({ authorization_token: s(4096) })] }), past: () => ({ resources: [repository({ authorization_token: s(4097) })] }), path: 'resources.0.authorization_token:' },
  // No one-character mount path is valid since issue 24 (only under /workspace/ or /mnt/session/): the
  // shortest accepted one stands on the valid side, '' on the refused side as before.
  { limit: 'mount_path min 1', ok: () => ({ resources: [repository({ mount_path: '/workspace/w' })] }), past: () => ({ resources: [repository({ mount_path: '' })] }), path: 'resources.0.mount_path:' },
  { limit: 'mount_path max 4096', ok: () => ({ resources: [repository({ mount_path: `/workspace/${s(4085)}` })] }), past: () => ({ resources: [repository({ mount_path: `/workspace/${s(4086)}` })] }), path: 'resources.0.mount_path:' },
  { limit: 'file mount_path max 4096', ok: () => ({ resources: [{ type: 'file', file_id: 'file_missing', mount_path: `/mnt/session/${s(4083)}` }] }), okStatus: 404, past: () => ({ resources: [{ type: 'file', file_id: 'file_missing', mount_path: `/mnt/session/${s(4084)}` }] }), path: 'resources.0.mount_path:' },
  { limit: 'branch name min 1', ok: () => ({ resources: [repository({ checkout: { type: 'branch', name: 'm' } })] }), past: () => ({ resources: [repository({ checkout: { type: 'branch', name: '' } })] }), path: 'resources.0.checkout.name:' },
  { limit: 'branch name max 255', ok: () => ({ resources: [repository({ checkout: { type: 'branch', name: s(255) } })] }), past: () => ({ resources: [repository({ checkout: { type: 'branch', name: s(256) } })] }), path: 'resources.0.checkout.name:' },
  { limit: 'commit sha min 7', ok: () => ({ resources: [repository({ checkout: { type: 'commit', sha: s(7, 'f') } })] }), past: () => ({ resources: [repository({ checkout: { type: 'commit', sha: s(6, 'f') } })] }), path: 'resources.0.checkout.sha:' },
  { limit: 'commit sha max 64', ok: () => ({ resources: [repository({ checkout: { type: 'commit', sha: s(64, 'f') } })] }), past: () => ({ resources: [repository({ checkout: { type: 'commit', sha: s(65, 'f') } })] }), path: 'resources.0.checkout.sha:' },
  { limit: 'file_id min 1', ok: () => ({ resources: [{ type: 'file', file_id: 'f' }] }), okStatus: 404, past: () => ({ resources: [{ type: 'file', file_id: '' }] }), path: 'resources.0.file_id:' },
  { limit: 'file_id max 128', ok: () => ({ resources: [{ type: 'file', file_id: s(128) }] }), okStatus: 404, past: () => ({ resources: [{ type: 'file', file_id: s(129) }] }), path: 'resources.0.file_id:' },
  { limit: 'rubric file_id max 128', ok: () => ({ initial_events: [outcome({ rubric: { type: 'file', file_id: s(128) } })] }), okStatus: 404, past: () => ({ initial_events: [outcome({ rubric: { type: 'file', file_id: s(129) } })] }), path: 'initial_events.0.rubric.file_id:' },
  { limit: 'memory store instructions max 4096', ok: () => ({ resources: [{ type: 'memory_store', memory_store_id: memoryStoreId, instructions: s(4096) }] }), past: () => ({ resources: [{ type: 'memory_store', memory_store_id: memoryStoreId, instructions: s(4097) }] }), path: 'resources.0.instructions:' },
  { limit: 'text rubric content max 262144', ok: () => ({ initial_events: [outcome({ rubric: { type: 'text', content: s(262144) } })] }), past: () => ({ initial_events: [outcome({ rubric: { type: 'text', content: s(262145) } })] }), path: 'initial_events.0.rubric.content:' },
  { limit: 'text block min 1', ok: () => ({ initial_events: [userMessage('x')] }), past: () => ({ initial_events: [userMessage('')] }), path: 'initial_events.0.content.0.text:' },
  { limit: 'system text block min 1', ok: () => ({ initial_events: [userMessage(), { type: 'system.message', content: [{ type: 'text', text: 'x' }] }] }), past: () => ({ initial_events: [userMessage(), { type: 'system.message', content: [{ type: 'text', text: '' }] }] }), path: 'initial_events.1.content.0.text:' },
  { limit: 'max_iterations max 20', ok: () => ({ initial_events: [outcome({ max_iterations: 20 })] }), past: () => ({ initial_events: [outcome({ max_iterations: 21 })] }), path: 'initial_events.0.max_iterations:' },
  { limit: 'max_iterations min 1', ok: () => ({ initial_events: [outcome({ max_iterations: 1 })] }), past: () => ({ initial_events: [outcome({ max_iterations: 0 })] }), path: 'initial_events.0.max_iterations:' },
  { limit: 'budget currency USD only', ok: () => ({ budget: { type: 'limit', max_list_cost: { currency: 'USD', amount: '100' } } }), past: () => ({ budget: { type: 'limit', max_list_cost: { currency: 'EUR', amount: '100' } } }), path: 'budget.max_list_cost.currency:' },
  { limit: 'budget amount 18 digits', ok: () => ({ budget: { type: 'limit', max_list_cost: { currency: 'USD', amount: `9${s(17, '9')}` } } }), past: () => ({ budget: { type: 'limit', max_list_cost: { currency: 'USD', amount: `1${s(18, '0')}` } } }), path: 'budget.max_list_cost.amount:' },
  { limit: 'budget amount no leading zero', ok: () => ({ budget: { type: 'limit', max_list_cost: { currency: 'USD', amount: '0' } } }), past: () => ({ budget: { type: 'limit', max_list_cost: { currency: 'USD', amount: '01' } } }), path: 'budget.max_list_cost.amount:' },
];

describe('Limits table: POST /v1/deployments', () => {
  for (const row of LIMITS) {
    test(`${row.limit}: at the boundary`, async () => {
      const res = await t.api('POST', '/v1/deployments', { body: t.world.body(row.ok()) });
      if (res.status !== (row.okStatus ?? 200)) console.error(row.limit, res.status, JSON.stringify(res.body).slice(0, 300));
      expect(res.status).toBe(row.okStatus ?? 200);
    });
    test(`${row.limit}: one past`, async () => {
      expectInvalidRequest(await t.api('POST', '/v1/deployments', { body: t.world.body(row.past()) }), row.path);
    });
  }

  test('upcoming_runs_at: up to 5 entries', async () => {
    const res = await t.api('POST', '/v1/deployments', { body: t.world.body(cron('*/5 * * * *')) });
    expect(res.status).toBe(200);
    expect(res.body.schedule.upcoming_runs_at).toHaveLength(5);
  });

  test('max_iterations: default 3 when omitted or null', async () => {
    const res = await t.api('POST', '/v1/deployments', {
      body: t.world.body({ initial_events: [outcome({}), outcome({ max_iterations: null }), outcome({ max_iterations: 7 })] }),
    });
    expect(res.status).toBe(200);
    expect(res.body.initial_events.map((e: any) => e.max_iterations)).toEqual([3, 3, 7]);
  });
});

describe('Limits table: GET /v1/deployments limit', () => {
  test('default 20, maximum 100, 101 and 0 refused', async () => {
    await Promise.all(Array.from({ length: 21 }, () => t.api('POST', '/v1/deployments', { body: t.world.body() })));
    const all = await t.api('GET', '/v1/deployments', { query: { limit: '100' } });
    expect(all.status).toBe(200);
    expect(all.body.data.length).toBeGreaterThan(20);
    const byDefault = await t.api('GET', '/v1/deployments');
    expect(byDefault.body.data).toHaveLength(20);
    expect(byDefault.body.next_page).toBeString();
    expectInvalidRequest(await t.api('GET', '/v1/deployments', { query: { limit: '101' } }), 'limit:');
    expectInvalidRequest(await t.api('GET', '/v1/deployments', { query: { limit: '0' } }), 'limit:');
  });
});
