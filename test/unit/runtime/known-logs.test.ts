import { expect, test } from 'bun:test';
import { KnownLogs } from '../../../services/runtime/src/domain/known-logs';
import type { LoggedEvent } from '../../../services/runtime/src/domain/session-log';

const events = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => ({ sequence: from + i, event: { id: `sevt_${from + i}`, type: 'user.message' } }) as unknown as LoggedEvent);

/** Each event weighs 10. */
const logs = (maxBytes: number) => new KnownLogs(maxBytes, () => 10);

test("a drive takes the log the last one kept, grows it, and keeps it; each event is weighed once", () => {
  let weighed = 0;
  const known = new KnownLogs(1000, () => (weighed++, 10));
  const first = known.take('sesn_1');
  expect(first.events).toEqual([]);
  first.events.push(...events(1, 3));
  known.keep('sesn_1', first);
  expect(known.size).toBe(30);
  const second = known.take('sesn_1');
  expect(second.events.map((e) => e.sequence)).toEqual([1, 2, 3]);
  // Taken out while a drive holds it: another drive of the session starts from nothing.
  expect(known.take('sesn_1').events).toEqual([]);
  expect(known.size).toBe(0);
  second.events.push(...events(4, 2));
  known.keep('sesn_1', second);
  expect(known.size).toBe(50);
  expect(weighed).toBe(5);
});

test('past the bound the least recently kept go first; a log larger than the bound is not kept', () => {
  const known = logs(60);
  for (const [id, count] of [['sesn_a', 2], ['sesn_b', 2], ['sesn_c', 2]] as const) known.keep(id, { events: events(1, count), weighed: 0, bytes: 0 });
  expect(known.size).toBe(60);
  known.keep('sesn_a', known.take('sesn_a'));
  known.keep('sesn_d', { events: events(1, 2), weighed: 0, bytes: 0 });
  // b was the least recently kept.
  expect(known.take('sesn_b').events).toEqual([]);
  expect(known.take('sesn_a').events).toHaveLength(2);
  known.keep('sesn_huge', { events: events(1, 7), weighed: 0, bytes: 0 });
  expect(known.take('sesn_huge').events).toEqual([]);
});

test('a deleted session is forgotten', () => {
  const known = logs(1000);
  known.keep('sesn_1', { events: events(1, 2), weighed: 0, bytes: 0 });
  known.forget('sesn_1');
  expect(known.size).toBe(0);
  expect(known.take('sesn_1').events).toEqual([]);
});
