import type { BusClient } from '@shared/bus/bus-client';
import type { CallContext } from '@shared/bus/call-context';
import { modelSubjects } from '@shared/bus/subjects/catalog';
import type { Model } from '@shared/schema/model';
import type { ListPrice } from '@shared/usage/list-cost';

/**
 * What the runtime reads of a model in the catalog, asked once per replica and model (the
 * catalog file changes only with a release): its list price, and its context window.
 */
export interface ModelPrices {
  of(ctx: CallContext, modelId: string): Promise<ListPrice | null>;
  /** `max_input_tokens`; null when the catalog does not say. */
  contextWindow(ctx: CallContext, modelId: string): Promise<number | null>;
}

export function modelPrices(bus: Pick<BusClient, 'call'>): ModelPrices {
  const known = new Map<string, Pick<Model, 'list_price' | 'max_input_tokens'>>();
  const read = async (ctx: CallContext, modelId: string) => {
    const cached = known.get(modelId);
    if (cached) return cached;
    const model = await bus.call(modelSubjects.get, ctx, { model_id: modelId });
    const kept = { list_price: model.list_price, max_input_tokens: model.max_input_tokens };
    known.set(modelId, kept);
    return kept;
  };
  return {
    of: async (ctx, modelId) => (await read(ctx, modelId)).list_price,
    contextWindow: async (ctx, modelId) => (await read(ctx, modelId)).max_input_tokens,
  };
}
