import { describe, expect, test } from 'bun:test';
import { newId } from '@shared/ids/ids';
import type { Session } from '@shared/schema/session';
import { holdSession, KnownLogs, noticedContinuation, type KnownLog } from '../../../services/runtime/src/domain/known-logs';

/** Logged events as a follow read returns them (valid against LoggedEvents). */
const logged = (from: number, types: string[]) =>
  types.map((type, i) => ({
    sequence: from + i,
    event: { id: newId('sessionEvent'), type, processed_at: '2026-11-29T10:00:00.000Z', ...(type === 'user.message' ? { content: [{ type: 'text', text: 'hi' }] } : {}) },
  }));

const session = { id: 'sesn_1' } as unknown as Session;

/** A log of `end` events held with the session at `revision`. */
function held(end: number, revision: number | undefined): KnownLog {
  const known: KnownLog = { events: logged(1, Array(end).fill('user.message')) as never, weighed: 0, bytes: 0 };
  if (end >= 0) holdSession(known, session, revision);
  return known;
}

const notice = (sequence: number, revision: number | undefined, events: unknown) => ({
  sequence,
  revision,
  events: events === undefined ? undefined : typeof events === 'string' ? events : JSON.stringify(events),
});

describe('a notice stands in for the drive\'s read', () => {
  test('when its events continue the log held, of the session held at the same revision', () => {
    const added = noticedContinuation(held(3, 2), notice(4, 2, logged(4, ['user.message'])));
    expect(added?.map((e) => e.sequence)).toEqual([4]);
    // Several events of one append.
    expect(noticedContinuation(held(3, 2), notice(5, 2, logged(4, ['user.message', 'user.message'])))?.length).toBe(2);
  });

  test('not when the row changed since (another revision), or the revision is unknown on either side', () => {
    expect(noticedContinuation(held(3, 2), notice(4, 3, logged(4, ['user.message'])))).toBeUndefined();
    expect(noticedContinuation(held(3, undefined), notice(4, 2, logged(4, ['user.message'])))).toBeUndefined();
    expect(noticedContinuation(held(3, 2), notice(4, undefined, logged(4, ['user.message'])))).toBeUndefined();
  });

  test('not without a session held, or without events in the notice (too large, an older replica, an archive)', () => {
    const bare: KnownLog = { events: [], weighed: 0, bytes: 0 };
    expect(noticedContinuation(bare, notice(1, 0, logged(1, ['user.message'])))).toBeUndefined();
    expect(noticedContinuation(held(3, 2), notice(4, 2, undefined))).toBeUndefined();
    expect(noticedContinuation(held(3, 2), notice(3, 2, []))).toBeUndefined();
  });

  test('not across a gap, nor short of the end the notice names', () => {
    expect(noticedContinuation(held(3, 2), notice(5, 2, logged(5, ['user.message'])))).toBeUndefined();
    expect(noticedContinuation(held(3, 2), notice(6, 2, logged(4, ['user.message'])))).toBeUndefined();
    expect(noticedContinuation(held(3, 2), notice(3, 2, logged(3, ['user.message'])))).toBeUndefined();
  });

  test("not with a session.* event (a status the row sums up, an update's): those are read", () => {
    expect(noticedContinuation(held(3, 2), notice(5, 2, logged(4, ['user.message', 'session.status_terminated'])))).toBeUndefined();
    expect(noticedContinuation(held(3, 2), notice(4, 2, logged(4, ['session.updated'])))).toBeUndefined();
  });

  test('not when the events are not what a read returns', () => {
    expect(noticedContinuation(held(3, 2), notice(4, 2, '[{"sequence":4'))).toBeUndefined();
    expect(noticedContinuation(held(3, 2), notice(4, 2, [{ sequence: 4, event: { type: 'user.message' } }]))).toBeUndefined();
  });
});

test('the session held weighs with its log, once, and a new read replaces its weight', () => {
  const logs = new KnownLogs(10_000, () => 10);
  const known = logs.take('sesn_1');
  known.events.push(...(logged(1, ['user.message']) as never[]));
  holdSession(known, session, 0);
  logs.keep('sesn_1', known);
  const sessionBytes = JSON.stringify(session).length;
  expect(logs.size).toBe(10 + sessionBytes);
  const again = logs.take('sesn_1');
  logs.keep('sesn_1', logs.take('sesn_1'));
  holdSession(again, { id: 'sesn_1', title: 'longer' } as unknown as Session, 1);
  logs.keep('sesn_1', again);
  expect(logs.size).toBe(10 + JSON.stringify({ id: 'sesn_1', title: 'longer' }).length);
});
