/**
 * What an append's `sessions.log_appended` notice tells the runtime besides the log's end: the
 * events themselves (when small) and the session row's revision, so a drive that holds the
 * session as of that revision need not read it again (domain/known-logs.ts in the runtime).
 */
import { beforeAll, expect, test } from 'bun:test';
import { eventSubject } from '@shared/bus/streams';
import { NOTICE_EVENTS_MAX_CHARS } from '@shared/schema/session-event';
import { expectOk } from '../support/expect';
import { deploymentWorld, MODELS, uploadFile, useTwoTenantStack } from '../support/fixtures';

const t = useTwoTenantStack({ services: ['catalog', 'deployments', 'vaults'] });
let world: Awaited<ReturnType<typeof deploymentWorld>>;
const text = (value: string) => ({ type: 'text' as const, text: value });

beforeAll(async () => {
  world = await deploymentWorld(t.api, { model: MODELS.priced });
});

test("a send's notice carries its events and the session row's revision, which every change of the row but its log's moves", async () => {
  const sessionId = expectOk(await t.api('POST', '/v1/sessions', { body: { agent: world.agent.id, environment_id: world.environment.id } })).id as string;
  const deployments = t.stack.service('deployments');
  const notices: Array<{ sequence: number; revision?: number; events?: string }> = [];
  let heard: () => void = () => undefined;
  const sub = deployments.nc.subscribe(eventSubject(t.stack.env('deployments').BUS_PREFIX!, 'sessions.log_appended'), {
    callback: (_err, msg) => {
      const { data } = msg.json<{ data: { session_id: string; sequence: number; revision?: number; events?: string } }>();
      if (data.session_id === sessionId) notices.push(data);
      heard();
    },
  });
  await deployments.nc.flush();
  const noticeOf = async (sequence: number) => {
    while (!notices.some((n) => n.sequence === sequence)) await new Promise<void>((resolve) => (heard = resolve));
    return notices.find((n) => n.sequence === sequence)!;
  };
  const send = async (value: string) => expectOk(await t.api('POST', `/v1/sessions/${sessionId}/events`, { body: { events: [{ type: 'user.message', content: [text(value)] }] } }));
  try {
    const sent = await send('hello');
    const first = await noticeOf(1);
    expect(first.revision).toBe(0);
    expect(JSON.parse(first.events!)).toEqual([{ sequence: 1, event: (sent.data as unknown[])[0] }]);
    // An update (its session.updated is logged, its notice carries it) moves the revision.
    expectOk(await t.api('POST', `/v1/sessions/${sessionId}`, { body: { title: 'renamed' } }));
    expect((await noticeOf(2)).revision).toBe(1);
    // A resource's change (no event) too: the next send's notice says so.
    const file = await uploadFile(t.api);
    expectOk(await t.api('POST', `/v1/sessions/${sessionId}/resources`, { body: { type: 'file', file_id: file.id } }));
    await send('again');
    expect((await noticeOf(3)).revision).toBe(2);
    // Events larger than a notice holds are left to be read.
    await send('y'.repeat(NOTICE_EVENTS_MAX_CHARS));
    const large = await noticeOf(4);
    expect(large.events).toBeUndefined();
    expect(large.revision).toBe(2);
  } finally {
    sub.unsubscribe();
  }
});
