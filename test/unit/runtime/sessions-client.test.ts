import { expect, test } from 'bun:test';
import type { BusClient } from '@shared/bus/bus-client';
import { ApiError } from '@shared/errors/api-error';
import { sessionsClient } from '../../../services/runtime/src/clients/sessions';

/** A drive's read against a deployments replica older than `with_session` (a rolling upgrade): the session and its log asked apart. */
test('a follow request refused for with_session is asked again as two requests', async () => {
  const asked: string[] = [];
  const session = { id: 'sesn_1' };
  const bus = {
    call: async (subject: { name: string }, _ctx: unknown, request: Record<string, unknown>) => {
      asked.push(`${subject.name}${request.with_session ? ' with_session' : ''}`);
      if (request.with_session) throw new ApiError('invalid_request_error', 'with_session: unknown property');
      if (subject.name.endsWith('get')) return session;
      return { events: [{ sequence: 4, event: { id: 'sevt_4', type: 'user.message' } }], from: 3, last: 4 };
    },
  } as unknown as BusClient;
  const read = await sessionsClient(bus).readWithLog({ request_id: 'req_1', tenant: null }, 'sesn_1', 3);
  expect(read.session).toEqual(session as never);
  expect(read.log.map((e) => e.sequence)).toEqual([4]);
  expect(asked.length).toBe(3);
  expect(asked[0]).toEndWith('with_session');
});

test('another failure of the read is not hidden', async () => {
  const bus = { call: async () => Promise.reject(new ApiError('overloaded_error', 'busy')) } as unknown as BusClient;
  await expect(sessionsClient(bus).readWithLog({ request_id: 'req_1', tenant: null }, 'sesn_1', 0)).rejects.toThrow('busy');
});

/** A drive's append against a deployments replica older than `caller_drives`: made as before, once more. */
test('an append refused for caller_drives is made again without it; other refusals are not', async () => {
  const asked: Array<Record<string, unknown>> = [];
  const run = { events: [], from: 3, last: 5 };
  const older = {
    call: async (_subject: unknown, _ctx: unknown, request: Record<string, unknown>) => {
      asked.push(request);
      if ('caller_drives' in request) throw new ApiError('invalid_request_error', 'caller_drives: unknown property');
      return run;
    },
  } as unknown as BusClient;
  const ctx = { request_id: 'req_1', tenant: null };
  const append = { session_id: 'sesn_1', after_sequence: 3, events: [{ type: 'session.status_running' as const }] };
  expect(await sessionsClient(older).append(ctx, { ...append, caller_drives: true })).toEqual(run);
  expect(asked).toEqual([{ ...append, caller_drives: true }, append]);

  asked.length = 0;
  const terminated = {
    call: async (_subject: unknown, _ctx: unknown, request: Record<string, unknown>) => {
      asked.push(request);
      throw new ApiError('invalid_request_error', "session 'sesn_1' is terminated");
    },
  } as unknown as BusClient;
  await expect(sessionsClient(terminated).append(ctx, { ...append, caller_drives: true })).rejects.toThrow('terminated');
  expect(asked.length).toBe(1);
});
