import { describe, expect, test } from 'bun:test';
import type { Model } from '@shared/schema/model';
import { ModelCatalog } from '../../../services/catalog/src/domain/model-catalog';
import { modelFixture } from '../../support/model-fixture';

/** A catalog file entry: a model without its `type`. */
const entry = (id: string, created_at: string, over: Partial<Model> = {}) => {
  const { type: _type, ...fields } = modelFixture({ id, display_name: id, created_at, ...over });
  return fields;
};

/** Five models, newest first: e, d, c, b, a. */
const catalog = ModelCatalog.fromJson(
  JSON.stringify([
    entry('a', '2025-01-01T00:00:00Z'),
    entry('c', '2025-03-01T00:00:00Z'),
    entry('e', '2025-05-01T00:00:00Z'),
    entry('b', '2025-02-01T00:00:00Z'),
    entry('d', '2025-04-01T00:00:00Z'),
  ]),
);
const ids = (page: { data: { id: string }[] }) => page.data.map((m) => m.id);

describe('model catalog', () => {
  test('lists newest first, 20 by default, with first and last ids', () => {
    const page = catalog.list({});
    expect(ids(page)).toEqual(['e', 'd', 'c', 'b', 'a']);
    expect(page).toMatchObject({ has_more: false, first_id: 'e', last_id: 'a' });
    expect(page.data[0].type).toBe('model');
  });

  test('after_id pages forward; has_more says whether models follow', () => {
    expect(catalog.list({ limit: 2 })).toMatchObject({ has_more: true, first_id: 'e', last_id: 'd' });
    const next = catalog.list({ limit: 2, after_id: 'd' });
    expect(ids(next)).toEqual(['c', 'b']);
    expect(next.has_more).toBe(true);
    const last = catalog.list({ limit: 2, after_id: 'b' });
    expect(ids(last)).toEqual(['a']);
    expect(last.has_more).toBe(false);
  });

  test('before_id alone pages backward: the models just before it', () => {
    const page = catalog.list({ limit: 2, before_id: 'b' });
    expect(ids(page)).toEqual(['d', 'c']);
    expect(page.has_more).toBe(true);
    expect(ids(catalog.list({ before_id: 'e' }))).toEqual([]);
  });

  test('after_id and before_id together take the window between them from its start', () => {
    expect(ids(catalog.list({ after_id: 'e', before_id: 'a', limit: 2 }))).toEqual(['d', 'c']);
  });

  test('an empty page has null ids', () => {
    expect(catalog.list({ after_id: 'a' })).toEqual({ data: [], has_more: false, first_id: null, last_id: null });
  });

  test('get answers 404 for an unknown id; find answers undefined', () => {
    expect(catalog.get('c').id).toBe('c');
    expect(() => catalog.get('zz')).toThrow("model 'zz' not found");
    expect(catalog.find('zz')).toBeUndefined();
  });

  test('lists active and deprecated models unless asked for lifecycle stages; get finds any', () => {
    const staged = ModelCatalog.fromJson(
      JSON.stringify([
        entry('new', '2026-03-01T00:00:00Z'),
        entry('old', '2026-02-01T00:00:00Z', { lifecycle: 'deprecated', deprecated_at: '2026-05-01T00:00:00Z', retires_at: '2026-11-01T00:00:00Z' }),
        entry('gone', '2026-01-01T00:00:00Z', { lifecycle: 'retired', deprecated_at: '2026-04-01T00:00:00Z' }),
      ]),
    );
    expect(ids(staged.list({}))).toEqual(['new', 'old']);
    expect(ids(staged.list({ lifecycle: ['retired'] }))).toEqual(['gone']);
    expect(ids(staged.list({ lifecycle: ['active', 'retired'] }))).toEqual(['new', 'gone']);
    expect(staged.get('gone').lifecycle).toBe('retired');
  });

  test('the shipped catalog file is valid and names every model of the SDK agent model enum', async () => {
    const shipped = ModelCatalog.fromJson(await Bun.file(new URL('../../../services/catalog/models.json', import.meta.url)).text());
    const source = await Bun.file(new URL('../../../node_modules/@anthropic-ai/sdk/resources/beta/agents/agents.d.ts', import.meta.url)).text();
    const union = /export type BetaManagedAgentsModel = ([^;]+);/.exec(source)![1]!;
    const enumIds = [...union.matchAll(/'([^']+)'/g)].map((m) => m[1]!);
    expect(enumIds.length).toBeGreaterThan(10);
    for (const id of enumIds) expect(shipped.find(id)?.id).toBe(id);
  });

  test('a catalog file that does not match the schema stops the service', () => {
    expect(() => ModelCatalog.fromJson(JSON.stringify([{ id: 'x' }]))).toThrow();
  });
});
