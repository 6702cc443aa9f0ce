import { Type } from '@sinclair/typebox';
import { Model, type ModelListQuery, type ModelPage } from '@shared/schema/model';
import { validate } from '@shared/validation/validate';
import { modelNotFound } from './not-found';

const CatalogFile = Type.Array(Type.Omit(Model, ['type']));

/** What a list shows unless asked otherwise (the SDK: retired models only when requested). */
const DEFAULT_LIFECYCLES = ['active', 'deprecated'];

/** The model catalog: a shipped file, validated at start so a bad file stops the service. */
export class ModelCatalog {
  private constructor(private readonly models: Model[]) {}

  static fromJson(text: string): ModelCatalog {
    const entries = validate(CatalogFile, JSON.parse(text), 'models');
    return new ModelCatalog(entries.map((m) => ({ type: 'model' as const, ...m })));
  }

  get(id: string): Model {
    const model = this.models.find((m) => m.id === id);
    if (!model) throw modelNotFound(id);
    return model;
  }

  find(id: string): Model | undefined {
    return this.models.find((m) => m.id === id);
  }

  /** Newest first, paged by id the way the SDK's `Page` does (after_id / before_id). */
  list(query: ModelListQuery): ModelPage {
    const stages = new Set<string>(query.lifecycle ?? DEFAULT_LIFECYCLES);
    // Newest first; models released together keep the file's order (the sort is stable).
    const ordered = this.models.filter((m) => stages.has(m.lifecycle)).sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0));
    const limit = query.limit ?? 20;
    let start = 0;
    let end = ordered.length;
    if (query.after_id !== undefined) start = ordered.findIndex((m) => m.id === query.after_id) + 1;
    if (query.before_id !== undefined) end = Math.max(0, ordered.findIndex((m) => m.id === query.before_id));
    const window = ordered.slice(start, end);
    const data = query.before_id !== undefined && query.after_id === undefined ? window.slice(-limit) : window.slice(0, limit);
    return {
      data,
      has_more: data.length < window.length,
      first_id: data[0]?.id ?? null,
      last_id: data[data.length - 1]?.id ?? null,
    };
  }
}
