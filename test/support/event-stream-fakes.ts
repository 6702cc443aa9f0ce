/**
 * What the event stream's unit tests stand in for the bus with: a fake log that answers `follow`
 * as the deployments service does, a follower that carries (or loses) notices, live feeds the
 * test sends on by hand, and a reader of the SSE body.
 */
import type { BusClient } from '@shared/bus/bus-client';
import { newId } from '@shared/ids/ids';
import { createLogger } from '@shared/log/logger';
import type { SessionLogFollower, SessionLogNotice } from '@shared/bus/session-log-follower';
import type { SessionEventsAppended } from '@shared/schema/session-event';
import type { SessionPreview } from '@shared/schema/session-preview';
import type { SessionAppendFeed, SessionPreviewFeed } from '../../services/gateway/src/modules/session-events/session-feeds';
import { StreamSlots } from '../../services/gateway/src/modules/session-events/stream-slots';

export const SESSION = newId('session');
export const call = { request_id: 'req_1', tenant: { organization_id: 'org_a', workspace_id: 'w', scope: 'read_write' as const, key_id: 'key_1' } };

/** A session log as the deployments service keeps it, answering `follow` the same way. */
export function fakeLog() {
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
export function fakeFollower() {
  const listeners = new Set<(n: SessionLogNotice) => void>();
  const closers = new Set<() => void>();
  const follower = {
    listen: (_id: string, listener: (n: SessionLogNotice) => void) => (listeners.add(listener), () => listeners.delete(listener)),
    onStop: (close: () => void) => (closers.add(close), () => closers.delete(close)),
  } as unknown as SessionLogFollower;
  return { follower, notify: (n: SessionLogNotice) => listeners.forEach((l) => l(n)), stop: () => [...closers].forEach((c) => c()), listeners };
}

/** Reads SSE messages off a body: events (parsed data) and comments, in arrival order. */
export function sseReader(body: ReadableStream<Uint8Array>) {
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

/** A live feed whose messages the test sends by hand (or never). */
export function fakeFeed<T, F>() {
  const listeners = new Set<(message: T) => void>();
  const feed = { listen: (_id: string, listener: (message: T) => void) => (listeners.add(listener), () => listeners.delete(listener)) } as unknown as F;
  return { feed, send: (message: T) => listeners.forEach((l) => l(message)), listeners };
}
export const fakePreviews = () => fakeFeed<SessionPreview, SessionPreviewFeed>();
export const fakeAppends = () => fakeFeed<SessionEventsAppended, SessionAppendFeed>();

export const deps = (bus: BusClient, follower: SessionLogFollower, keepAliveMs = 60_000, previews = fakePreviews().feed, appends = fakeAppends().feed) => ({
  bus,
  follower,
  previews,
  appends,
  slots: new StreamSlots(10),
  logger: createLogger('error', { service: 'test' }),
  options: { keepAliveMs },
});

/** The next `count` events, skipping keep-alive comments. */
export async function events(next: () => Promise<any>, count: number) {
  const out = [];
  while (out.length < count) {
    const message = await next();
    if (message === null) throw new Error('stream ended');
    if (!message.comment) out.push(message);
  }
  return out;
}

