import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { modelSubjects } from '@shared/bus/subjects/catalog';
import { apiClient } from '../support/api';
import { Stack } from '../support/stack';

/**
 * A backing service that fails in ways no handler intends: an internal exception carrying SQL
 * text, and a reply that breaks its declared schema. Both travel the real bus; the client sees
 * only the envelope's 500, never the internals.
 */
let stack: Stack;
let key: string;

beforeAll(async () => {
  stack = await Stack.start({ services: [] });
  key = (await stack.createKey()).secret;
  const server = stack.gateway.host.server;
  server.handle(modelSubjects.list, async () => {
    throw new Error("ER_PARSE_ERROR: You have an error near 'SELECT secret FROM api_keys'");
  });
  server.handle(modelSubjects.get, async () => ({ not: 'a model' }) as never);
  await stack.gateway.host.nc.flush();
});
afterAll(() => stack?.stop());

describe('unexpected failures', () => {
  test('an exception in a service: 500 api_error, generic message, no internals', async () => {
    const res = await apiClient(stack.url, key)('GET', '/v1/models');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({
      type: 'error',
      error: { type: 'api_error', message: 'Internal server error' },
      request_id: res.headers.get('request-id'),
    });
  });

  test('a reply that breaks its schema: 500 api_error, nothing of it passed on', async () => {
    const res = await apiClient(stack.url, key)('GET', '/v1/models/whatever');
    expect(res.status).toBe(500);
    expect(res.body.error).toEqual({ type: 'api_error', message: 'Internal server error' });
    expect(JSON.stringify(res.body)).not.toContain('a model');
  });
});
