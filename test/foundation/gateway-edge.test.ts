import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { DEVELOPMENT_API_KEY } from '../../services/gateway/src/auth/development-key';
import { apiClient, type ApiResponse } from '../support/api';
import { expectError } from '../support/expect';
import { Stack } from '../support/stack';

let stack: Stack;
let key: string;

beforeAll(async () => {
  stack = await Stack.start();
  key = (await stack.createKey()).secret;
});
afterAll(() => stack?.stop());

/** The error envelope, and a request id the gateway minted itself. */
function expectEnvelope(response: ApiResponse, status: number, type: string) {
  expectError(response, status, type);
  expect(response.headers.get('request-id')).toMatch(/^req_[0-9A-Za-z]{24}$/);
}

describe('the gateway edge', () => {
  test('serves the model catalog through NATS and the catalog service', async () => {
    const res = await apiClient(stack.url, key)('GET', '/v1/models');
    expect(res.status).toBe(200);
    expect(res.headers.get('request-id')).toMatch(/^req_/);
    expect(res.body.data.length).toBeGreaterThan(0);
    expect(res.body.data.some((m: any) => m.list_price === null)).toBe(true);
    expect(res.body.data.some((m: any) => m.supports_system_messages === false)).toBe(true);
    const one = await apiClient(stack.url, key)('GET', `/v1/models/${res.body.data[0].id}`);
    expect(one.body).toEqual(res.body.data[0]);
  });

  test('lists deployments as an empty page', async () => {
    const res = await apiClient(stack.url, key)('GET', '/v1/deployments');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [], next_page: null });
  });

  test('no key: 401 envelope', async () => {
    expectEnvelope(await apiClient(stack.url)('GET', '/v1/deployments'), 401, 'authentication_error');
  });

  test('bad key: 401, in either header', async () => {
    expectEnvelope(await apiClient(stack.url, 'sk-agents-not-a-real-key-000000')('GET', '/v1/models'), 401, 'authentication_error');
    const bearer = await apiClient(stack.url)('GET', '/v1/models', { headers: { authorization: 'Bearer nope-nope-nope-nope' } });
    expectEnvelope(bearer, 401, 'authentication_error');
  });

  test('Bearer works, and X-Api-Key is read first', async () => {
    const viaBearer = await apiClient(stack.url)('GET', '/v1/models', { headers: { authorization: `Bearer ${key}` } });
    expect(viaBearer.status).toBe(200);
    const badFirst = await apiClient(stack.url)('GET', '/v1/models', {
      headers: { 'x-api-key': 'sk-agents-invalid-invalid-invalid', authorization: `Bearer ${key}` },
    });
    expectEnvelope(badFirst, 401, 'authentication_error');
  });

  test('missing anthropic-version on /v1/deployments: 400 naming the header and the value', async () => {
    const res = await apiClient(stack.url, key)('GET', '/v1/deployments', { headers: { 'anthropic-version': null } });
    expectEnvelope(res, 400, 'invalid_request_error');
    expect(res.body.error.message).toContain('anthropic-version');
    expect(res.body.error.message).toContain('2023-06-01');
  });

  test('wrong version value, missing or wrong beta header: 400', async () => {
    const call = apiClient(stack.url, key);
    expectEnvelope(await call('GET', '/v1/deployments', { headers: { 'anthropic-version': '2024-01-01' } }), 400, 'invalid_request_error');
    const noBeta = await call('GET', '/v1/deployments', { headers: { 'anthropic-beta': null } });
    expectEnvelope(noBeta, 400, 'invalid_request_error');
    expect(noBeta.body.error.message).toContain('anthropic-beta');
    const otherBeta = await call('GET', '/v1/deployments', { headers: { 'anthropic-beta': 'something-else' } });
    expectEnvelope(otherBeta, 400, 'invalid_request_error');
    const listed = await call('GET', '/v1/deployments', { headers: { 'anthropic-beta': 'x-1, managed-agents-2026-04-01' } });
    expect(listed.status).toBe(200);
  });

  test('the vendor- placeholder header names are accepted', async () => {
    const res = await apiClient(stack.url, key)('GET', '/v1/deployments', {
      headers: { 'anthropic-version': null, 'anthropic-beta': null, 'vendor-version': '2023-06-01', 'vendor-beta': 'managed-agents-2026-04-01' },
    });
    expect(res.status).toBe(200);
  });

  test('version headers are optional on /v1/models but validated when present', async () => {
    const call = apiClient(stack.url, key);
    expect((await call('GET', '/v1/models', { headers: { 'anthropic-version': null, 'anthropic-beta': null } })).status).toBe(200);
    expectEnvelope(await call('GET', '/v1/models', { headers: { 'anthropic-version': 'nope' } }), 400, 'invalid_request_error');
  });

  test('beta query missing, other value or repeated: 400', async () => {
    const call = apiClient(stack.url, key);
    const missing = await call('GET', '/v1/deployments', { query: { beta: null } });
    expectEnvelope(missing, 400, 'invalid_request_error');
    expect(missing.body.error.message).toContain('beta');
    expectEnvelope(await call('GET', '/v1/deployments', { query: { beta: 'false' } }), 400, 'invalid_request_error');
    expectEnvelope(await call('GET', '/v1/deployments?beta=true', {}), 400, 'invalid_request_error');
  });

  test('unknown route: 404 envelope, before authentication', async () => {
    expectEnvelope(await apiClient(stack.url)('GET', '/v1/nothing-here'), 404, 'not_found_error');
    expectEnvelope(await apiClient(stack.url, key)('DELETE', '/v1/models'), 404, 'not_found_error');
  });

  test('malformed JSON: 400 envelope; wrong content type: 400', async () => {
    const call = apiClient(stack.url, key);
    const res = await call('POST', '/v1/deployments', { rawBody: '{"name": ', headers: { 'content-type': 'application/json' } });
    expectEnvelope(res, 400, 'invalid_request_error');
    expect(res.body.error.message).toContain('malformed JSON');
    const text = await call('POST', '/v1/deployments', { rawBody: 'name=x', headers: { 'content-type': 'text/plain' } });
    expectEnvelope(text, 400, 'invalid_request_error');
    expect(text.body.error.message).toContain('content-type');
  });

  test('body over 8 MiB: 413 envelope', async () => {
    const big = '{"name":"' + 'x'.repeat(8 * 1024 * 1024) + '"}';
    const res = await apiClient(stack.url, key)('POST', '/v1/deployments', { rawBody: big, headers: { 'content-type': 'application/json' } });
    expectEnvelope(res, 413, 'invalid_request_error');
  });

  test('unknown and repeated query parameters: 400 naming them', async () => {
    const call = apiClient(stack.url, key);
    const unknown = await call('GET', '/v1/deployments', { query: { colour: 'blue' } });
    expectEnvelope(unknown, 400, 'invalid_request_error');
    expect(unknown.body.error.message).toContain('colour');
    const limit = await call('GET', '/v1/deployments', { query: { limit: '0' } });
    expectEnvelope(limit, 400, 'invalid_request_error');
    expect(limit.body.error.message).toStartWith('limit:');
  });

  test('read-only key: 403 on a POST, reads still work', async () => {
    const readOnly = (await stack.createKey({ scope: 'read_only' })).secret;
    const call = apiClient(stack.url, readOnly);
    expectEnvelope(await call('POST', '/v1/deployments', { body: {} }), 403, 'permission_error');
    expect((await call('GET', '/v1/deployments')).status).toBe(200);
  });

  test('workspace header must match the key: 403', async () => {
    const res = await apiClient(stack.url, key)('GET', '/v1/models', { headers: { 'anthropic-workspace-id': 'wrkspc_other' } });
    expectEnvelope(res, 403, 'permission_error');
  });

  test('the development key works outside production', async () => {
    expect((await apiClient(stack.url, DEVELOPMENT_API_KEY)('GET', '/v1/models')).status).toBe(200);
  });

  test('a revoked key stops working', async () => {
    const created = await stack.createKey();
    await stack.gateway.keys.revoke(created.id);
    expectEnvelope(await apiClient(stack.url, created.secret)('GET', '/v1/models'), 401, 'authentication_error');
  });

  test('catalog down: 503 overloaded_error, and the gateway stays up', async () => {
    await stack.stopService('catalog');
    try {
      const res = await apiClient(stack.url, key)('GET', '/v1/models');
      expectEnvelope(res, 503, 'overloaded_error');
      expect(res.body.error.message).not.toContain('rpc.');
      expect((await fetch(`${stack.url}/healthz`)).status).toBe(200);
    } finally {
      await stack.startService('catalog');
    }
    expect((await apiClient(stack.url, key)('GET', '/v1/models')).status).toBe(200);
  });

  test('health and readiness', async () => {
    expect((await fetch(`${stack.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${stack.url}/readyz`)).status).toBe(200);
    for (const runtime of stack.services.values()) {
      expect((await fetch(`http://127.0.0.1:${runtime.healthPort()}/readyz`)).status).toBe(200);
    }
  });
});

describe('query parameters on routes that take none', () => {
  test('an item or action route refuses anything but beta', async () => {
    const call = apiClient(stack.url, key);
    const res = await call('GET', '/v1/models/claude-opus-4-5', { query: { expand: 'all' } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('expand: unknown query parameter');
    expect((await call('GET', '/v1/models/claude-opus-4-5')).status).toBe(200);
  });
});

describe('request logs', () => {
  test('one JSON line per request with request id, tenant, operation, status and duration; never the key', async () => {
    const lines: string[] = [];
    const { setLogSink } = await import('@shared/log/logger');
    const previous = setLogSink((line) => lines.push(line));
    try {
      const res = await apiClient(stack.url, key)('GET', '/v1/models/claude-opus-4-5');
      const id = res.headers.get('request-id');
      const http = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'http request' && l.request_id === id);
      expect(http).toHaveLength(1);
      expect(http[0]).toMatchObject({ operation: 'GET /v1/models/:model_id', status: 200, workspace_id: expect.any(String) });
      expect(typeof http[0].duration_ms).toBe('number');
      // The test stack logs at debug, where each successful bus hop has its line too (not at info).
      const bus = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'bus call' && l.request_id === id);
      expect(bus[0]).toMatchObject({ level: 'debug', operation: 'catalog.models.get', status: 'ok' });
      expect(lines.join('\n')).not.toContain(key);
    } finally {
      setLogSink(previous);
    }
  });
});
