/**
 * A session's lease (services/runtime/src/db/session-leases.ts) against the real database: one
 * drive at a time holds it, a lapsed one is taken over, a renewal keeps it, and a drive that lost
 * it can neither renew it nor give it back. The times are given, not read from a clock.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import type { Database } from '@shared/db/connect';
import { newId } from '@shared/ids/ids';
import { sessionLeases } from '../../services/runtime/src/db/schema';
import { batchedSessionLeases, changeSessionLeases, releaseSessionLease, renewSessionLease, takeSessionLease } from '../../services/runtime/src/db/session-leases';
import { Stack } from '../support/stack';

let stack: Stack;
let db: Database;

beforeAll(async () => {
  stack = await Stack.start({ services: ['runtime'], env: { LOG_LEVEL: 'error' } });
  db = stack.service('runtime').database.db;
}, 60_000);
afterAll(async () => {
  await stack?.stop();
});

const at = (seconds: number) => new Date(Date.UTC(2026, 5, 1, 8, 0, seconds));
const holderOf = async (sessionId: string) => (await db.select().from(sessionLeases).where(eq(sessionLeases.sessionId, sessionId)))[0];

test('one drive holds a session at a time; given back, the next takes it', async () => {
  const session = newId('session');
  expect(await takeSessionLease(db, session, 'a', at(0), at(30))).toBe(true);
  expect(await takeSessionLease(db, session, 'b', at(1), at(31))).toBe(false);
  expect(await holderOf(session)).toMatchObject({ holder: 'a', expiresAt: at(30) });
  await releaseSessionLease(db, session, 'b');
  expect((await holderOf(session))?.holder).toBe('a');
  await releaseSessionLease(db, session, 'a');
  expect(await holderOf(session)).toBeUndefined();
  expect(await takeSessionLease(db, session, 'b', at(2), at(32))).toBe(true);
});

test('a lapsed lease is taken over; its old holder can then neither renew it nor give it back', async () => {
  const session = newId('session');
  expect(await takeSessionLease(db, session, 'a', at(0), at(30))).toBe(true);
  expect(await takeSessionLease(db, session, 'b', at(31), at(61))).toBe(true);
  expect(await holderOf(session)).toMatchObject({ holder: 'b', expiresAt: at(61) });
  expect(await renewSessionLease(db, session, 'a', at(32), at(62))).toBe(false);
  await releaseSessionLease(db, session, 'a');
  expect(await holderOf(session)).toMatchObject({ holder: 'b', expiresAt: at(61) });
});

test('a renewal moves the expiry on, the same expiry again included; one that finds no lease takes it again', async () => {
  const session = newId('session');
  expect(await takeSessionLease(db, session, 'a', at(0), at(30))).toBe(true);
  expect(await renewSessionLease(db, session, 'a', at(10), at(40))).toBe(true);
  expect(await holderOf(session)).toMatchObject({ holder: 'a', expiresAt: at(40) });
  // Nothing changes, and the holder still has it (the rows matched count, not the rows changed).
  expect(await renewSessionLease(db, session, 'a', at(10), at(40))).toBe(true);
  await releaseSessionLease(db, session, 'a');
  expect(await renewSessionLease(db, session, 'a', at(11), at(41))).toBe(true);
  expect(await holderOf(session)).toMatchObject({ holder: 'a', expiresAt: at(41) });
});

test('drives racing for a free session: exactly one wins', async () => {
  const session = newId('session');
  const won = await Promise.all(['a', 'b', 'c', 'd'].map((holder) => takeSessionLease(db, session, holder, at(0), at(30))));
  expect(won.filter(Boolean)).toHaveLength(1);
  expect((await holderOf(session))?.holder).toBe(['a', 'b', 'c', 'd'][won.indexOf(true)]);
});

test('drives racing for a lapsed lease: exactly one takes it over', async () => {
  const session = newId('session');
  expect(await takeSessionLease(db, session, 'a', at(0), at(30))).toBe(true);
  const won = await Promise.all(['b', 'c', 'd'].map((holder) => takeSessionLease(db, session, holder, at(31), at(61))));
  expect(won.filter(Boolean)).toHaveLength(1);
  expect((await holderOf(session))?.holder).toBe(['b', 'c', 'd'][won.indexOf(true)]);
});

describe('a batch of lease changes (changeSessionLeases)', () => {
  test('releases and takes of many sessions: each take granted or not as alone, each release its holder\'s only', async () => {
    const [given, free, held, lapsed, notMine] = Array.from({ length: 5 }, () => newId('session'));
    expect(await takeSessionLease(db, given!, 'a', at(0), at(30))).toBe(true);
    expect(await takeSessionLease(db, held!, 'other', at(0), at(30))).toBe(true);
    expect(await takeSessionLease(db, lapsed!, 'other', at(0), at(5))).toBe(true);
    expect(await takeSessionLease(db, notMine!, 'other', at(0), at(30))).toBe(true);
    const granted = await changeSessionLeases(db, [
      { kind: 'release', sessionId: given!, holder: 'a' },
      { kind: 'take', sessionId: free!, holder: 'b', now: at(10), until: at(40) },
      { kind: 'take', sessionId: held!, holder: 'b', now: at(10), until: at(40) },
      { kind: 'take', sessionId: lapsed!, holder: 'b', now: at(10), until: at(40) },
      { kind: 'release', sessionId: notMine!, holder: 'a' },
    ]);
    expect(granted).toEqual([true, true, false, true, true]);
    expect(await holderOf(given!)).toBeUndefined();
    expect(await holderOf(free!)).toMatchObject({ holder: 'b', expiresAt: at(40) });
    expect(await holderOf(held!)).toMatchObject({ holder: 'other', expiresAt: at(30) });
    expect(await holderOf(lapsed!)).toMatchObject({ holder: 'b', expiresAt: at(40) });
    expect(await holderOf(notMine!)).toMatchObject({ holder: 'other' });
  });

  test('takes of free sessions are granted together; batched, a release is stored before the next take of its session', async () => {
    const sessions = Array.from({ length: 4 }, () => newId('session'));
    expect(await changeSessionLeases(db, sessions.map((sessionId) => ({ kind: 'take' as const, sessionId, holder: 'a', now: at(0), until: at(30) })))).toEqual([
      true,
      true,
      true,
      true,
    ]);
    const leases = batchedSessionLeases(db);
    // Asked in the same moment: the release is stored before the take is tried.
    const [, next] = await Promise.all([leases.release(sessions[0]!, 'a'), leases.take(sessions[0]!, 'b', at(1), at(31))]);
    expect(next).toBe(true);
    expect(await holderOf(sessions[0]!)).toMatchObject({ holder: 'b' });
    await leases.idle();
  });
});
