import type { BusClient } from '@shared/bus/bus-client';
import type { CallContext } from '@shared/bus/call-context';
import { environmentSubjects } from '@shared/bus/subjects/catalog';
import type { EnvironmentConfig } from '@shared/schema/environment';
import type { WorkPool } from '@shared/schema/work';

/** What the runtime asks the catalog about environments. */
export interface EnvironmentsClient {
  /**
   * Which workers serve the environment's work items: its type now (`cloud`, the product's
   * sandbox workers; `self_hosted`, the operator's). Asked each time an item is queued, not
   * remembered: an update may change an environment's type.
   */
  poolOf(ctx: CallContext, environmentId: string): Promise<WorkPool>;
  /** The environment's config now (a claimed cloud item's sandbox policy is read off it). */
  configOf(ctx: CallContext, environmentId: string): Promise<EnvironmentConfig>;
}

export function environmentsClient(bus: Pick<BusClient, 'call'>): EnvironmentsClient {
  return {
    poolOf: async (ctx, environmentId) => (await bus.call(environmentSubjects.get, ctx, { environment_id: environmentId })).config.type,
    configOf: async (ctx, environmentId) => (await bus.call(environmentSubjects.get, ctx, { environment_id: environmentId })).config,
  };
}
