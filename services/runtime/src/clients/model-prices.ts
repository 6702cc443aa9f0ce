import type { BusClient } from '@shared/bus/bus-client';
import type { CallContext } from '@shared/bus/call-context';
import { modelSubjects } from '@shared/bus/subjects/catalog';
import type { ListPrice } from '@shared/usage/list-cost';

/** A model's list price, asked of the catalog once per replica and model (the catalog file changes only with a release). */
export interface ModelPrices {
  of(ctx: CallContext, modelId: string): Promise<ListPrice | null>;
}

export function modelPrices(bus: Pick<BusClient, 'call'>): ModelPrices {
  const known = new Map<string, ListPrice | null>();
  return {
    async of(ctx, modelId) {
      if (known.has(modelId)) return known.get(modelId)!;
      const model = await bus.call(modelSubjects.get, ctx, { model_id: modelId });
      known.set(modelId, model.list_price);
      return model.list_price;
    },
  };
}
