/**
 * The event stream fed by the live feed of appends (what each append added, published after its
 * commit): events that continue what a stream delivered go out without a log read; anything else
 * (a message lost, out of step, or arriving during a read) is read from the log, in order, once.
 */
import { expect, test } from 'bun:test';
import type { BusClient } from '@shared/bus/bus-client';
import type { SessionEventsAppended } from '@shared/schema/session-event';
import { openEventStream } from '../../../services/gateway/src/modules/session-events/event-stream';
import { call, deps, events, fakeAppends, fakeFollower, fakeLog, fakePreviews, SESSION, sseReader } from '../../support/event-stream-fakes';

/** The fake log, its reads counted (the first, at the stream's start, included). */
function countedLog() {
  const log = fakeLog();
  let reads = 0;
  const bus = { call: (...args: unknown[]) => ((reads += 1), (log.bus.call as (...a: unknown[]) => Promise<unknown>)(...args)) } as unknown as BusClient;
  return { ...log, bus, reads: () => reads };
}

/** What the deployments service publishes for the log's events after `from` up to its end. */
function published(log: ReturnType<typeof fakeLog>, from: number): SessionEventsAppended {
  return { session_id: SESSION, events: log.events.slice(from), from, last: log.events.length };
}

test('events heard on the feed go out without a read; the notice after them reads nothing', async () => {
  const log = countedLog();
  log.append(2);
  const f = fakeFollower();
  const a = fakeAppends();
  const response = await openEventStream(deps(log.bus, f.follower, 60_000, fakePreviews().feed, a.feed), call, SESSION, null, undefined);
  const next = sseReader(response.body!);
  expect(log.reads()).toBe(1);
  for (let turn = 0; turn < 3; turn++) {
    const from = log.events.length;
    a.send(published(log, (log.append(3), from)));
    f.notify({ kind: 'appended', sequence: log.events.length });
    expect((await events(next, 3)).map((m) => m.id)).toEqual(log.events.slice(from).map((e) => e.event.id));
  }
  expect(log.reads()).toBe(1);
  f.stop();
  expect(a.listeners.size).toBe(0);
});

test('a lost feed message: the next one leaves a gap and is not sent; the notice reads the log, each event once and in order', async () => {
  const log = countedLog();
  const f = fakeFollower();
  const a = fakeAppends();
  const response = await openEventStream(deps(log.bus, f.follower, 60_000, fakePreviews().feed, a.feed), call, SESSION, null, undefined);
  const next = sseReader(response.body!);
  log.append(2); // its message lost
  a.send(published(log, (log.append(1), 2)));
  f.notify({ kind: 'appended', sequence: 3 });
  expect((await events(next, 3)).map((m) => m.id)).toEqual(log.events.map((e) => e.event.id));
  expect(log.reads()).toBe(2);
  // A late copy of what was delivered, and one that overlaps: only the new event goes out.
  a.send(published(log, 0));
  a.send(published(log, (log.append(1), 2)));
  f.notify({ kind: 'appended', sequence: 4 });
  expect((await events(next, 1)).map((m) => m.id)).toEqual([log.events[3]!.event.id]);
  expect(log.reads()).toBe(2);
  f.stop();
});

test('feed messages that arrive while the first read is under way are kept where they continue it', async () => {
  const log = fakeLog();
  log.append(2);
  const f = fakeFollower();
  const a = fakeAppends();
  // The first read answers after the feed brought events both before and after its end.
  const slow = {
    call: async (...args: unknown[]) => {
      const reply = await (log.bus.call as (...x: unknown[]) => Promise<{ last: number }>)(...args);
      a.send(published(log, 0)); // already in the log the read saw: not sent again
      a.send(published(log, (log.append(2), reply.last)));
      return reply;
    },
  } as unknown as BusClient;
  const response = await openEventStream(deps(slow, f.follower, 60_000, fakePreviews().feed, a.feed), call, SESSION, null, undefined);
  const next = sseReader(response.body!);
  expect((await events(next, 2)).map((m) => m.id)).toEqual(log.events.slice(2).map((e) => e.event.id));
  f.stop();
});

test("an append too large for the feed, heard without its events and with no notice (a drive's own): the log is read", async () => {
  const log = countedLog();
  const f = fakeFollower();
  const a = fakeAppends();
  const response = await openEventStream(deps(log.bus, f.follower, 60_000, fakePreviews().feed, a.feed), call, SESSION, null, undefined);
  const next = sseReader(response.body!);
  a.send(published(log, (log.append(1), 0)));
  expect((await events(next, 1)).map((m) => m.id)).toEqual([log.events[0]!.event.id]);
  a.send({ ...published(log, (log.append(2), 1)), events: [] });
  expect((await events(next, 2)).map((m) => m.id)).toEqual(log.events.slice(1).map((e) => e.event.id));
  expect(log.reads()).toBe(2);
  f.stop();
});
