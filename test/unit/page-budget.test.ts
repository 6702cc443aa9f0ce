/**
 * The page byte budget and chunked reading on their own: which rows a page keeps, where the next
 * one starts, and how many rows each query reads (a fake row source in keyset order).
 */
import { expect, test } from 'bun:test';
import { LIST_READ_CHUNK, readPage, readWithinBudget } from '@shared/db/keyset-page';
import type { PagePosition } from '@shared/schema/common';

type Row = { id: string; createdAt: Date; size: number };
const row = (n: number, size: number): Row => ({ id: `r${n}`, createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, n)), size });
const present = (r: Row) => ({ id: r.id, body: 'x'.repeat(r.size) });
const at = (n: number): PagePosition => ({ created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(), id: `r${n}` });

/** Rows in list order; each read returns up to `count` rows strictly after `from`, and is recorded. */
function source(rows: Row[]) {
  const reads: Array<{ from: string | null; count: number; returned: number }> = [];
  const read = async (from: PagePosition | null, count: number) => {
    const start = from ? rows.findIndex((r) => r.id === from.id) + 1 : 0;
    const chunk = rows.slice(start, start + count);
    reads.push({ from: from?.id ?? null, count, returned: chunk.length });
    return chunk;
  };
  return { read, reads };
}

const rows = (count: number, size = 1) => Array.from({ length: count }, (_, n) => row(n, size));

test('items are kept while the page stays within the budget; the next page starts after the last kept', async () => {
  const { read } = source([row(0, 40), row(1, 40), row(2, 40), row(3, 40)]);
  const page = await readWithinBudget(read, null, 10, present, { budget: 150 });
  expect(page.data.map((d) => d.id)).toEqual(['r0', 'r1']);
  expect(Buffer.byteLength(JSON.stringify(page.data))).toBeLessThanOrEqual(150);
  expect(page).toMatchObject({ first: at(0), last: at(1), more: true });
});

test('a single item over the budget is a page of one, never an empty page', async () => {
  const { read } = source([row(0, 500), row(1, 1)]);
  const page = await readPage(read, null, 10, present);
  expect(page.data.map((d) => d.id)).toEqual(['r0', 'r1']);
  const tight = await readWithinBudget(read, null, 10, present, { budget: 100 });
  expect(tight.data.map((d) => d.id)).toEqual(['r0']);
  expect(tight).toMatchObject({ last: at(0), more: true });
});

test('a page within the budget that reaches the end says no more follow', async () => {
  const { read } = source([row(0, 1), row(1, 1)]);
  expect(await readPage(read, null, 10, present)).toEqual({ data: [present(row(0, 1)), present(row(1, 1))], next: null });
  expect(await readPage(read, at(1), 10, present)).toEqual({ data: [], next: null });
});

test('a page is read in chunks, each query continuing right after the last row of the one before', async () => {
  const { read, reads } = source(rows(250));
  const page = await readWithinBudget(read, null, 100, present, { chunk: 10 });
  expect(page.data.map((d) => d.id)).toEqual(rows(100).map((r) => r.id));
  expect(page).toMatchObject({ last: at(99), more: true });
  // Nine chunks, then the last ten items and the one that says more follow in one query.
  expect(reads.map((r) => r.count)).toEqual([...Array(9).fill(10), 11]);
  expect(reads.map((r) => r.from)).toEqual([null, ...Array.from({ length: 9 }, (_, i) => `r${i * 10 + 9}`)]);
  expect(Math.max(...reads.map((r) => r.returned))).toBeLessThanOrEqual(11);
});

test('a default page of 20 is one query', async () => {
  const { read, reads } = source(rows(50));
  await readPage(read, null, 20, present);
  expect(reads.map((r) => r.count)).toEqual([21]);
  expect(LIST_READ_CHUNK + 1).toBeGreaterThanOrEqual(21);
});

test('a page whose limit fits one chunk is one query of limit + 1 rows', async () => {
  const { read, reads } = source(rows(50));
  const page = await readPage(read, at(4), 10, present);
  expect(page.data.map((d) => d.id)).toEqual(rows(15).slice(5).map((r) => r.id));
  expect(page.next).toEqual(at(14));
  expect(reads).toEqual([{ from: 'r4', count: 11, returned: 11 }]);
});

test('a full page ending on a chunk boundary asks for one row more to know whether more follow', async () => {
  const exactly = source(rows(20));
  expect((await readPage(exactly.read, null, 20, present)).next).toBeNull();
  const followed = source(rows(21));
  expect((await readPage(followed.read, null, 20, present)).next).toEqual(at(19));
  const { read, reads } = source(rows(41));
  await readWithinBudget(read, null, 20, present, { chunk: 5 });
  expect(reads.map((r) => r.count)).toEqual([5, 5, 5, 6]);
});

test('the budget stops the reading: large rows read at most a chunk beyond what the page returns', async () => {
  const { read, reads } = source(rows(500, 1000));
  const page = await readWithinBudget(read, null, 1000, present, { budget: 25_000 });
  expect(page.data.length).toBe(24);
  expect(page.more).toBe(true);
  expect(reads.reduce((n, r) => n + r.returned, 0)).toBeLessThanOrEqual(page.data.length + LIST_READ_CHUNK);
  // The next page starts right after the last item returned, not after the last row read.
  expect(page.last).toEqual(at(23));
  const next = await readWithinBudget(read, page.last, 1000, present, { budget: 25_000 });
  expect(next.first).toEqual(at(24));
});

test('read backward towards an anchor, the rows nearest the anchor are kept', async () => {
  // Reverse order from the anchor r3: r2, r1, r0 — nearest first.
  const { read } = source([row(3, 40), row(2, 40), row(1, 40), row(0, 40)]);
  const page = await readWithinBudget(read, at(3), 10, present, { budget: 150 });
  expect(page.data.map((d) => d.id)).toEqual(['r2', 'r1']);
  expect(page).toMatchObject({ first: at(2), last: at(1), more: true });
});
