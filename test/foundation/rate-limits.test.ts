import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { newId, randomBase62 } from '@shared/ids/ids';
import { ManualClock } from '@shared/time/clock';
import { loadGatewayConfig } from '../../services/gateway/src/config';
import { startGateway, type RunningGateway } from '../../services/gateway/src/start-gateway';
import { apiClient, type ApiResponse } from '../support/api';
import { expectError } from '../support/expect';
import { Stack } from '../support/stack';

/**
 * Rate limits through the real gateway, NATS (the shared key-value bucket) and MariaDB, with
 * small limits and a hand-driven clock: every refill is a step of the test, not a wait.
 * 5 requests a minute per key (a token every 12 s), 8 per workspace, 3 failed key lookups a
 * minute per client address (one every 20 s).
 */
const LIMITS = {
  RATE_LIMIT_KEY_REQUESTS_PER_MINUTE: '5',
  RATE_LIMIT_WORKSPACE_REQUESTS_PER_MINUTE: '8',
  RATE_LIMIT_FAILED_LOOKUPS_PER_MINUTE: '3',
};
const T0 = Date.parse('2026-11-22T09:00:00.000Z');
const clock = new ManualClock(new Date(T0));
let stack: Stack;
const replicas: RunningGateway[] = [];

beforeAll(async () => {
  stack = await Stack.start({ clock, services: ['catalog'], serviceEnv: { gateway: LIMITS } });
});

afterAll(async () => {
  for (const gateway of replicas) await gateway.stop();
  await stack?.stop();
});

/** Another gateway replica on the same bus and database as the stack's. */
async function replica(env: Record<string, string> = {}): Promise<RunningGateway> {
  const gateway = await startGateway(loadGatewayConfig({ ...stack.env('gateway'), PORT: '0', ...env }), { clock });
  replicas.push(gateway);
  return gateway;
}

const headersOf = (response: ApiResponse) => ({
  limit: response.headers.get('anthropic-ratelimit-requests-limit'),
  remaining: response.headers.get('anthropic-ratelimit-requests-remaining'),
  reset: response.headers.get('anthropic-ratelimit-requests-reset'),
});
const at = (ms: number) => new Date(ms).toISOString();
const unknownKey = () => `sk-agents-${randomBase62(48)}`;

describe('rate limits per API key and per workspace', () => {
  test('a burst over the key\'s limit: 429 with retry-after, the ratelimit headers on every answer, one more request per refill', async () => {
    const api = apiClient(stack.url, (await stack.createKey()).secret);
    const answers = [];
    for (let i = 0; i < 7; i++) answers.push(await api('GET', '/v1/models'));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 429, 429]);
    // The key's bucket binds (5 a minute, its workspace 8): what is left, and when it is full
    // again at a token every 12 s.
    expect(answers.map(headersOf)).toEqual([
      { limit: '5', remaining: '4', reset: at(T0 + 12_000) },
      { limit: '5', remaining: '3', reset: at(T0 + 24_000) },
      { limit: '5', remaining: '2', reset: at(T0 + 36_000) },
      { limit: '5', remaining: '1', reset: at(T0 + 48_000) },
      { limit: '5', remaining: '0', reset: at(T0 + 60_000) },
      { limit: '5', remaining: '0', reset: at(T0 + 60_000) },
      { limit: '5', remaining: '0', reset: at(T0 + 60_000) },
    ]);
    for (const refused of answers.slice(5)) {
      expectError(refused, 429, 'rate_limit_error', 'rate limit of 5 requests per minute exceeded for this API key', 'retry after 12 s');
      expect(refused.headers.get('retry-after')).toBe('12');
    }
    // Refused before anything else about the request is decided: a bad body is not even read.
    expectError(await api('POST', '/v1/agents', { body: { nonsense: true } }), 429, 'rate_limit_error');

    clock.advance(12_000);
    const refilled = await api('GET', '/v1/models');
    expect(refilled.status).toBe(200);
    expect(headersOf(refilled)).toEqual({ limit: '5', remaining: '0', reset: at(T0 + 72_000) });
    expect((await api('GET', '/v1/models')).status).toBe(429);
  });

  test('errors of every kind carry the headers too', async () => {
    const api = apiClient(stack.url, (await stack.createKey()).secret);
    const notFound = await api('GET', `/v1/agents/${newId('agent')}`);
    expectError(notFound, 404, 'not_found_error');
    const invalid = await api('POST', '/v1/agents', { body: { nonsense: true } });
    expectError(invalid, 400, 'invalid_request_error');
    const noBeta = await api('GET', '/v1/models', { query: { beta: null } });
    expectError(noBeta, 400, 'invalid_request_error');
    expect([notFound, invalid, noBeta].map((r) => headersOf(r).remaining)).toEqual(['4', '3', '2']);
    expect(headersOf(noBeta).limit).toBe('5');
  });

  test('the keys of one workspace share its limit', async () => {
    const tenant = { org: `org_${randomBase62(8)}`, workspace: `wrkspc_${randomBase62(8)}` };
    const first = apiClient(stack.url, (await stack.createKey(tenant)).secret);
    const second = apiClient(stack.url, (await stack.createKey(tenant)).secret);
    for (let i = 0; i < 5; i++) expect((await first('GET', '/v1/models')).status).toBe(200);
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await second('GET', '/v1/models'));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429]);
    // The workspace binds (fewer left than the second key): 3 of 8 after the first key's five.
    expect(answers.map((a) => headersOf(a).remaining)).toEqual(['2', '1', '0', '0']);
    expect(answers.map((a) => headersOf(a).limit)).toEqual(['8', '8', '8', '8']);
    expectError(answers[3]!, 429, 'rate_limit_error', 'rate limit of 8 requests per minute exceeded for this workspace');
    // A token every 7.5 s.
    expect(answers[3]!.headers.get('retry-after')).toBe('8');
    clock.advance(7_500);
    expect((await second('GET', '/v1/models')).status).toBe(200);
    expect((await first('GET', '/v1/models')).status).toBe(429);
  });

  test('two gateway replicas share one budget', async () => {
    const other = await replica(LIMITS);
    const key = (await stack.createKey()).secret;
    const viaFirst = apiClient(stack.url, key);
    const viaSecond = apiClient(other.url, key);
    for (let i = 0; i < 3; i++) expect((await viaFirst('GET', '/v1/models')).status).toBe(200);
    // What the replicas' timers do every RATE_LIMIT_SYNC_MS, here at the test's own step.
    await stack.gateway.rateLimits.sync();
    const second = [];
    for (let i = 0; i < 3; i++) second.push(await viaSecond('GET', '/v1/models'));
    expect(second.map((a) => a.status)).toEqual([200, 200, 429]);
    expect(headersOf(second[0]!).remaining).toBe('1');
    expect(second[2]!.headers.get('retry-after')).toBe('12');
    await other.rateLimits.sync();
    await stack.gateway.rateLimits.sync();
    expectError(await viaFirst('GET', '/v1/models'), 429, 'rate_limit_error', 'for this API key');
  });

  test('limits set to 0 are off: no 429, no headers', async () => {
    const unlimited = await replica({
      RATE_LIMIT_KEY_REQUESTS_PER_MINUTE: '0',
      RATE_LIMIT_WORKSPACE_REQUESTS_PER_MINUTE: '0',
      RATE_LIMIT_FAILED_LOOKUPS_PER_MINUTE: '0',
    });
    const api = apiClient(unlimited.url, (await stack.createKey()).secret);
    for (let i = 0; i < 8; i++) {
      const answer = await api('GET', '/v1/models');
      expect(answer.status).toBe(200);
      expect(answer.headers.get('anthropic-ratelimit-requests-limit')).toBeNull();
    }
  });
});

describe('failed key lookups per client address', () => {
  test('unknown and revoked keys are limited per address; a key already cached still works, a spoofed X-Forwarded-For changes nothing', async () => {
    const revoked = await stack.createKey();
    // (Revoking empties this replica's key cache.)
    await stack.gateway.keys.revoke(revoked.tenant.key_id);
    const cached = apiClient(stack.url, (await stack.createKey()).secret);
    expect((await cached('GET', '/v1/models')).status).toBe(200);
    const notYetUsed = apiClient(stack.url, (await stack.createKey()).secret);

    const repeated = unknownKey();
    const failures = [revoked.secret, repeated, unknownKey()];
    for (const key of failures) expectError(await apiClient(stack.url, key)('GET', '/v1/models'), 401, 'authentication_error');
    // A key just found unknown is cached: asking again costs no lookup, and is not counted.
    expectError(await apiClient(stack.url, repeated)('GET', '/v1/models'), 401, 'authentication_error');

    const refused = await apiClient(stack.url, unknownKey())('GET', '/v1/models');
    expectError(refused, 429, 'rate_limit_error', 'unknown or revoked API keys from this address', 'retry after 20 s');
    expect(refused.headers.get('retry-after')).toBe('20');
    expect(headersOf(refused)).toEqual({ limit: '3', remaining: '0', reset: at(clock.now().getTime() + 60_000) });
    // Past the limit nothing is looked up from this address, a valid key not yet cached included;
    // one cached before goes on working.
    expectError(await notYetUsed('GET', '/v1/models'), 429, 'rate_limit_error');
    expect((await cached('GET', '/v1/models')).status).toBe(200);
    // With no trusted proxy, X-Forwarded-For is the client's own word.
    const spoofed = await apiClient(stack.url, unknownKey())('GET', '/v1/models', { headers: { 'x-forwarded-for': '198.51.100.9' } });
    expectError(spoofed, 429, 'rate_limit_error');

    clock.advance(20_000);
    expectError(await apiClient(stack.url, unknownKey())('GET', '/v1/models'), 401, 'authentication_error');
    expectError(await apiClient(stack.url, unknownKey())('GET', '/v1/models'), 429, 'rate_limit_error');
  });

  test('behind a trusted proxy (TRUSTED_PROXY_HOPS=1) the address is the one the proxy appended', async () => {
    const behindProxy = await replica({ ...LIMITS, TRUSTED_PROXY_HOPS: '1' });
    const from = (address: string) => ({ headers: { 'x-forwarded-for': `203.0.113.50, ${address}` } });
    for (let i = 0; i < 3; i++) {
      expectError(await apiClient(behindProxy.url, unknownKey())('GET', '/v1/models', from('198.51.100.1')), 401, 'authentication_error');
    }
    expectError(await apiClient(behindProxy.url, unknownKey())('GET', '/v1/models', from('198.51.100.1')), 429, 'rate_limit_error');
    // Another client behind the same proxy has its own budget (the peer, 127.0.0.1, ran out above).
    expectError(await apiClient(behindProxy.url, unknownKey())('GET', '/v1/models', from('198.51.100.2')), 401, 'authentication_error');
  });
});
