/**
 * The event stream's reading rules without a bus: a fake log answers `follow` as the deployments
 * service does, a fake follower carries (or loses) notices. What arrives is checked, never when.
 */
import { expect, test } from 'bun:test';
import type { BusClient } from '@shared/bus/bus-client';
import { ApiError } from '@shared/errors/api-error';
import { newId } from '@shared/ids/ids';
import { createLogger } from '@shared/log/logger';
import { openEventStream } from '../../../services/gateway/src/modules/session-events/event-stream';
import { StreamSlots } from '../../../services/gateway/src/modules/session-events/stream-slots';
import type { SessionLogFollower, SessionLogNotice } from '@shared/bus/session-log-follower';
import type { SessionPreviewFeed } from '../../../services/gateway/src/modules/session-events/session-preview-feed';
import type { SessionPreview } from '@shared/schema/session-preview';

const SESSION = newId('session');
const call = { request_id: 'req_1', tenant: { organization_id: 'org_a', workspace_id: 'w', scope: 'read_write' as const, key_id: 'key_1' } };

/** A session log as the deployments service keeps it, answering `follow` the same way. */
function fakeLog() {
  const events: Array<{ sequence: number; event: { id: string; type: string; content: unknown[]; processed_at: string } }> = [];
  const bus = {
    async call(_subject: unknown, _call: unknown, request: { after: { sequence: number } | { event_id: string } | null; limit: number }) {
      const last = events.length;
      const from = request.after === null ? last : 'sequence' in request.after ? request.after.sequence : events.find((e) => e.event.id === (request.after as { event_id: string }).event_id)!.sequence;
      return { events: events.slice(from, from + request.limit), from, last };
    },
  } as unknown as BusClient;
  const append = (count: number) => {
    for (let i = 0; i < count; i++) {
      events.push({ sequence: events.length + 1, event: { id: newId('sessionEvent'), type: 'user.message', content: [], processed_at: new Date(0).toISOString() } });
    }
    return events.length;
  };
  return { bus, events, append };
}

/** A follower whose notices the test sends by hand (or never). */
function fakeFollower() {
  const listeners = new Set<(n: SessionLogNotice) => void>();
  const closers = new Set<() => void>();
  const follower = {
    listen: (_id: string, listener: (n: SessionLogNotice) => void) => (listeners.add(listener), () => listeners.delete(listener)),
    onStop: (close: () => void) => (closers.add(close), () => closers.delete(close)),
  } as unknown as SessionLogFollower;
  return { follower, notify: (n: SessionLogNotice) => listeners.forEach((l) => l(n)), stop: () => [...closers].forEach((c) => c()), listeners };
}

/** Reads SSE messages off a body: events (parsed data) and comments, in arrival order. */
function sseReader(body: ReadableStream<Uint8Array>) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  return async function next(): Promise<{ event?: string; id?: string; data?: any; comment?: string } | null> {
    for (;;) {
      const end = buffer.indexOf('\n\n');
      if (end !== -1) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (block.startsWith(':')) return { comment: block.slice(1).trim() };
        const fields = Object.fromEntries(block.split('\n').map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]));
        return { event: fields.event, id: fields.id, data: JSON.parse(fields.data) };
      }
      const { value, done } = await reader.read();
      if (done) return null;
      buffer += decoder.decode(value);
    }
  };
}

/** A feed of previews the test sends by hand. */
function fakePreviews() {
  const listeners = new Set<(p: SessionPreview) => void>();
  const feed = { listen: (_id: string, listener: (p: SessionPreview) => void) => (listeners.add(listener), () => listeners.delete(listener)) } as unknown as SessionPreviewFeed;
  return { feed, send: (p: SessionPreview) => listeners.forEach((l) => l(p)), listeners };
}

const deps = (bus: BusClient, follower: SessionLogFollower, keepAliveMs = 60_000, previews = fakePreviews().feed) => ({
  bus,
  follower,
  previews,
  slots: new StreamSlots(10),
  logger: createLogger('error', { service: 'test' }),
  options: { keepAliveMs },
});

/** The next `count` events, skipping keep-alive comments. */
async function events(next: () => Promise<any>, count: number) {
  const out = [];
  while (out.length < count) {
    const message = await next();
    if (message === null) throw new Error('stream ended');
    if (!message.comment) out.push(message);
  }
  return out;
}

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
