/**
 * Who hears of an append: a drive's own (its cursor is told of its appends) asks for no work-queue
 * notice, since the drive goes on from the reply; an append made for someone else to drive on
 * (appendAtLogEnd: a worker's result, a validation's outcome) keeps it, as its notice is what
 * brings the drive.
 */
import { expect, test } from 'bun:test';
import type { RuntimeEventBody } from '@shared/schema/session-event';
import type { RuntimeDeps } from '../../../services/runtime/src/deps';
import { appendAt, appendAtLogEnd } from '../../../services/runtime/src/session-driver/session-log-writes';

function world() {
  const appends: Array<Record<string, unknown>> = [];
  const deps = {
    sessions: {
      append: async (_ctx: unknown, request: Record<string, unknown>) => {
        appends.push(request);
        return { events: [], from: request.after_sequence, last: (request.after_sequence as number) + (request.events as unknown[]).length };
      },
      readLog: async () => [],
    },
  } as unknown as RuntimeDeps;
  return { deps, appends };
}

const ctx = { request_id: 'req_1', tenant: null };
const running: RuntimeEventBody[] = [{ type: 'session.status_running' }];

test("a drive's append asks for no work-queue notice", async () => {
  const { deps, appends } = world();
  const told: number[] = [];
  await appendAt(deps, ctx, { sessionId: 'sesn_1', after: 4, appending: (last) => told.push(last) }, running);
  expect(appends).toEqual([{ session_id: 'sesn_1', after_sequence: 4, events: running, caller_drives: true }]);
  expect(told).toEqual([5]);
});

test('an append without a drive behind it keeps its notice', async () => {
  const { deps, appends } = world();
  await appendAt(deps, ctx, { sessionId: 'sesn_1', after: 4 }, running);
  await appendAtLogEnd(deps, { organization_id: 'org_1', workspace_id: 'wrkspc_1' }, 'sesn_1', 'req_2', () => running);
  expect(appends.map((a) => 'caller_drives' in a)).toEqual([false, false]);
});
