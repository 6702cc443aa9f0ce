/** The page byte budget on its own: which rows a page keeps and where the next one starts. */
import { expect, test } from 'bun:test';
import { presentWithinBudget, splitPage } from '../../shared/db/keyset-page';

const row = (n: number, size: number) => ({ id: `r${n}`, createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, n)), size });
const present = (r: ReturnType<typeof row>) => ({ id: r.id, body: 'x'.repeat(r.size) });
const at = (n: number) => ({ created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(), id: `r${n}` });

test('items are kept while the page stays within the budget; the next page starts after the last kept', () => {
  const rows = [row(0, 40), row(1, 40), row(2, 40), row(3, 40)];
  const page = presentWithinBudget(splitPage(rows, 10), present, { budget: 150 });
  expect(page.data.map((d) => d.id)).toEqual(['r0', 'r1']);
  expect(Buffer.byteLength(JSON.stringify(page.data))).toBeLessThanOrEqual(150);
  expect(page.next).toEqual(at(1));
});

test('a single item over the budget is a page of one, never an empty page', () => {
  const page = presentWithinBudget(splitPage([row(0, 500), row(1, 1)], 10), present, { budget: 100 });
  expect(page.data.map((d) => d.id)).toEqual(['r0']);
  expect(page.next).toEqual(at(0));
});

test('a page within the budget is untouched (the last page keeps next null)', () => {
  const page = presentWithinBudget(splitPage([row(0, 1), row(1, 1)], 10), present, { budget: 1000 });
  expect(page).toEqual({ data: [present(row(0, 1)), present(row(1, 1))], next: null, prev: null });
});

test('read backward, the rows nearest the anchor are kept and prev moves to the first kept', () => {
  const rows = [row(0, 40), row(1, 40), row(2, 40)];
  const page = presentWithinBudget({ rows, next: at(2), prev: at(0) }, present, { keep: 'last', budget: 150 });
  expect(page.data.map((d) => d.id)).toEqual(['r1', 'r2']);
  expect(page.prev).toEqual(at(1));
  expect(page.next).toEqual(at(2));
});

test('read backward within the budget, the page keeps its order', () => {
  const rows = [row(0, 1), row(1, 1)];
  const page = presentWithinBudget({ rows, next: at(1), prev: at(0) }, present, { keep: 'last', budget: 1000 });
  expect(page.data.map((d) => d.id)).toEqual(['r0', 'r1']);
  expect(page.prev).toEqual(at(0));
});
