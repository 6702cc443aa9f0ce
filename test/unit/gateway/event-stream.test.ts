/**
 * The event stream's reading rules without a bus: a fake log answers `follow` as the deployments
 * service does, a fake follower carries (or loses) notices. What arrives is checked, never when.
 */
import { expect, test } from 'bun:test';
import type { BusClient } from '@shared/bus/bus-client';
import { ApiError } from '@shared/errors/api-error';
import { newId } from '@shared/ids/ids';
import type { SessionPreview } from '@shared/schema/session-preview';
import { openEventStream } from '../../../services/gateway/src/modules/session-events/event-stream';
import { StreamSlots } from '../../../services/gateway/src/modules/session-events/stream-slots';
import { call, deps, events, fakeFollower, fakeLog, fakePreviews, SESSION, sseReader } from '../../support/event-stream-fakes';

test('starts at the log end, then delivers in sequence what each notice announces, with the event id as the SSE id', async () => {
  const log = fakeLog();
  log.append(3); // history: not replayed without Last-Event-ID
  const f = fakeFollower();
  const response = await openEventStream(deps(log.bus, f.follower), call, SESSION, null, undefined);
  expect(response.headers.get('content-type')).toStartWith('text/event-stream');
  const next = sseReader(response.body!);
  f.notify({ kind: 'appended', sequence: log.append(2) });
  const got = await events(next, 2);
  expect(got.map((m) => m.id)).toEqual(log.events.slice(3, 5).map((e) => e.event.id));
  expect(got.map((m) => m.event)).toEqual(['user.message', 'user.message']);
  expect(got[0].data).toEqual(log.events[3].event);
  f.stop();
  expect(await next()).toBeNull();
  expect(f.listeners.size).toBe(0);
});

test('lost notices cost nothing but time: the keep-alive re-reads the log, and idle streams get keep-alive comments', async () => {
  const log = fakeLog();
  const f = fakeFollower();
  const response = await openEventStream(deps(log.bus, f.follower, 5), call, SESSION, null, undefined);
  const next = sseReader(response.body!);
  let comment;
  do comment = await next();
  while (!comment?.comment);
  expect(comment).toEqual({ comment: 'keep-alive' });
  log.append(4); // no notice at all
  expect((await events(next, 4)).map((m) => m.id)).toEqual(log.events.map((e) => e.event.id));
  f.stop();
});

test('Last-Event-ID resumes right after that event; a stale or repeated notice delivers nothing twice', async () => {
  const log = fakeLog();
  log.append(5);
  const f = fakeFollower();
  const response = await openEventStream(deps(log.bus, f.follower), call, SESSION, log.events[1].event.id, undefined);
  const next = sseReader(response.body!);
  expect((await events(next, 3)).map((m) => m.id)).toEqual(log.events.slice(2).map((e) => e.event.id));
  f.notify({ kind: 'appended', sequence: 4 });
  f.notify({ kind: 'appended', sequence: log.append(1) });
  f.notify({ kind: 'appended', sequence: 6 });
  expect((await events(next, 1)).map((m) => m.id)).toEqual([log.events[5].event.id]);
  f.notify({ kind: 'deleted', event_id: 'sevt_x', processed_at: '2026-01-01T00:00:00.000Z' });
  expect(await events(next, 1)).toEqual([{ event: 'session.deleted', id: 'sevt_x', data: { id: 'sevt_x', type: 'session.deleted', processed_at: '2026-01-01T00:00:00.000Z' } }]);
  expect(await next()).toBeNull();
});

test('the client going away ends the stream and frees its slot and its listener', async () => {
  const log = fakeLog();
  const f = fakeFollower();
  const slots = new StreamSlots(1);
  const connection = new AbortController();
  const response = await openEventStream({ ...deps(log.bus, f.follower), slots }, call, SESSION, null, connection.signal);
  expect(() => slots.acquire(call)).toThrow('at most 1');
  connection.abort();
  expect(await sseReader(response.body!)()).toBeNull();
  expect(f.listeners.size).toBe(0);
  slots.acquire(call);
});

test('previews of the asked types come before their event, without an SSE id; none after it, none unasked', async () => {
  const log = fakeLog();
  const f = fakeFollower();
  const p = fakePreviews();
  const response = await openEventStream(deps(log.bus, f.follower, 60_000, p.feed), call, SESSION, null, undefined, new Set(['agent.message'] as const));
  const next = sseReader(response.body!);
  const id = newId('sessionEvent');
  const delta = (text: string): SessionPreview => ({
    session_id: SESSION,
    previewed: 'agent.message',
    event: { type: 'event_delta', event_id: id, delta: { type: 'content_delta', index: 0, content: { type: 'text', text } } },
  });
  p.send({ session_id: SESSION, previewed: 'agent.thinking', event: { type: 'event_start', event: { id: newId('sessionEvent'), type: 'agent.thinking' } } });
  p.send({ session_id: SESSION, previewed: 'agent.message', event: { type: 'event_start', event: { id, type: 'agent.message' } } });
  p.send(delta('Hel'));
  const opened = await events(next, 2);
  expect(opened.map((m) => [m.event, m.id])).toEqual([['event_start', undefined], ['event_delta', undefined]]);
  expect(opened[1].data).toEqual(delta('Hel').event);
  log.events.push({ sequence: 1, event: { id, type: 'agent.message', content: [{ type: 'text', text: 'Hello' }], processed_at: new Date(0).toISOString() } });
  f.notify({ kind: 'appended', sequence: 1 });
  expect((await events(next, 1)).map((m) => [m.event, m.id])).toEqual([['agent.message', id]]);
  p.send(delta('lo')); // late: its event went out already
  f.notify({ kind: 'appended', sequence: log.append(1) });
  expect((await events(next, 1)).map((m) => m.event)).toEqual(['user.message']);
  f.stop();
  expect(p.listeners.size).toBe(0);
});

test('a stream that asks for no previews does not listen for them', async () => {
  const log = fakeLog();
  const f = fakeFollower();
  const p = fakePreviews();
  await openEventStream(deps(log.bus, f.follower, 60_000, p.feed), call, SESSION, null, undefined);
  expect(p.listeners.size).toBe(0);
  f.stop();
});

test('a read refused for load (429) is tried again soon, not at the next keep-alive, and the stream goes on', async () => {
  const log = fakeLog();
  const f = fakeFollower();
  let refusals = 3;
  const refusing = {
    call: (...args: Parameters<BusClient['call']>) => {
      const request = args[2] as { after: unknown };
      if (request.after !== null && refusals > 0) {
        refusals -= 1;
        return Promise.reject(new ApiError('rate_limit_error', 'the tenant queue is full'));
      }
      return (log.bus.call as (...a: unknown[]) => Promise<unknown>)(...args);
    },
  } as unknown as BusClient;
  // A keep-alive far beyond the test's timeout: only the retry can bring the events.
  const response = await openEventStream(deps(refusing, f.follower, 10 * 60_000), call, SESSION, null, undefined);
  const next = sseReader(response.body!);
  f.notify({ kind: 'appended', sequence: log.append(2) });
  expect((await events(next, 2)).map((m) => m.id)).toEqual(log.events.map((e) => e.event.id));
  expect(refusals).toBe(0);
  f.stop();
});
