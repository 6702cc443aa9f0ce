import { expect, test } from 'bun:test';
import { ApiError } from '@shared/errors/api-error';
import { StreamSlots } from '../../../services/gateway/src/modules/session-events/stream-slots';

const call = (workspace: string) => ({ request_id: 'req_1', tenant: { organization_id: 'org_a', workspace_id: workspace, scope: 'read_write' as const, key_id: 'key_1' } });

test('open event streams are limited per workspace, the limit named in the 429; a release frees one slot once', () => {
  const slots = new StreamSlots(2);
  const first = slots.acquire(call('w1'));
  slots.acquire(call('w1'));
  let refused: unknown;
  try {
    slots.acquire(call('w1'));
  } catch (err) {
    refused = err;
  }
  expect(refused).toBeInstanceOf(ApiError);
  expect((refused as ApiError).status).toBe(429);
  expect((refused as ApiError).message).toContain('at most 2 open at once per workspace');
  // Another workspace has its own slots.
  slots.acquire(call('w2'));
  first();
  first();
  slots.acquire(call('w1'));
  expect(() => slots.acquire(call('w1'))).toThrow('at most 2');
});
