import type { SessionUsage } from '@shared/schema/session';
import type { UsageDelta } from '@shared/schema/session-event';
import { centsOf } from '@shared/usage/list-cost';

/** A session's usage after one more model response: token counts and exact list-cost units summed. */
export function addUsage(total: UsageDelta | null, delta: UsageDelta): UsageDelta {
  if (!total) return delta;
  return {
    input_tokens: total.input_tokens + delta.input_tokens,
    output_tokens: total.output_tokens + delta.output_tokens,
    cache_read_input_tokens: total.cache_read_input_tokens + delta.cache_read_input_tokens,
    cache_creation_5m_input_tokens: total.cache_creation_5m_input_tokens + delta.cache_creation_5m_input_tokens,
    cache_creation_1h_input_tokens: total.cache_creation_1h_input_tokens + delta.cache_creation_1h_input_tokens,
    list_cost_units: (BigInt(total.list_cost_units) + BigInt(delta.list_cost_units)).toString(),
  };
}

/**
 * The SDK's `usage` of a session: zeros until the runtime recorded a model response; then the
 * sums, and `list_cost` in whole cents (rounded up: a shown cost never understates the spend).
 */
export function presentUsage(usage: UsageDelta | null): SessionUsage {
  return {
    input_tokens: usage?.input_tokens ?? 0,
    output_tokens: usage?.output_tokens ?? 0,
    cache_read_input_tokens: usage?.cache_read_input_tokens ?? 0,
    cache_creation: {
      ephemeral_1h_input_tokens: usage?.cache_creation_1h_input_tokens ?? 0,
      ephemeral_5m_input_tokens: usage?.cache_creation_5m_input_tokens ?? 0,
    },
    active_seconds: 0,
    ...(usage ? { list_cost: { currency: 'USD', amount: centsOf(BigInt(usage.list_cost_units)) } } : {}),
  };
}
