import { Type, type Static } from '@sinclair/typebox';
import { Closed, Nullable, Timestamp } from './common';

/** Public list price per million tokens, in USD minor units (cents) as integer strings. */
export const ListPrice = Closed({
  currency: Type.Literal('USD'),
  input_per_million_tokens: Type.String({ pattern: '^(0|[1-9][0-9]*)$' }),
  output_per_million_tokens: Type.String({ pattern: '^(0|[1-9][0-9]*)$' }),
});
export type ListPrice = Static<typeof ListPrice>;

/** SDK `BetaCapabilitySupport`. */
const Support = Closed({ supported: Type.Boolean() });

/**
 * SDK `BetaModelCapabilities`: every key always present (the SDK: "Keys are always present for
 * all known capabilities"); a nullable member is null where the capability does not apply.
 */
export const ModelCapabilities = Closed({
  batch: Support,
  citations: Support,
  code_execution: Support,
  compaction: Nullable(Closed({ summarize: Support, supported: Type.Boolean() })),
  context_management: Closed({
    clear_thinking_20251015: Nullable(Support),
    clear_tool_uses_20250919: Nullable(Support),
    compact_20260112: Nullable(Support),
    supported: Type.Boolean(),
  }),
  effort: Closed({
    high: Support,
    low: Support,
    max: Support,
    medium: Support,
    supported: Type.Boolean(),
    xhigh: Nullable(Support),
  }),
  image_input: Support,
  pdf_input: Support,
  server_tools: Closed({ code_execution: Support, supported: Type.Boolean(), web_search: Support }),
  structured_outputs: Support,
  thinking: Closed({
    supported: Type.Boolean(),
    types: Closed({ adaptive: Support, between_tools: Support, disabled: Support, enabled: Support }),
  }),
});
export type ModelCapabilities = Static<typeof ModelCapabilities>;

export const MODEL_LIFECYCLES = ['active', 'deprecated', 'retired'] as const;
export const ModelLifecycle = Type.Union(MODEL_LIFECYCLES.map((l) => Type.Literal(l)));
export type ModelLifecycle = Static<typeof ModelLifecycle>;

/** SDK `BetaModelLine`. */
const ModelLine = Type.Union(['haiku', 'sonnet', 'opus', 'fable', 'mythos'].map((l) => Type.Literal(l)));

/** SDK `BetaModelInfo`, plus this product's `list_price` and `supports_system_messages`. */
export const Model = Closed({
  type: Type.Literal('model'),
  id: Type.String(),
  display_name: Type.String(),
  created_at: Timestamp,
  /** Model ids accepted as `fallbacks[i].model`; empty: fallbacks are not supported with this model. */
  allowed_fallback_models: Nullable(Type.Array(Type.String())),
  capabilities: Nullable(ModelCapabilities),
  lifecycle: ModelLifecycle,
  /** Set once the model is deprecated or retired. */
  deprecated_at: Nullable(Timestamp),
  /** The scheduled retirement, if any. */
  retires_at: Nullable(Timestamp),
  line: Nullable(ModelLine),
  max_input_tokens: Nullable(Type.Integer({ minimum: 1 })),
  max_tokens: Nullable(Type.Integer({ minimum: 1 })),
  /** Null when the model has no public list price: budgets cannot be set on such agents. */
  list_price: Nullable(ListPrice),
  /** Whether the model accepts `system.message` events mid-conversation. */
  supports_system_messages: Type.Boolean(),
});
export type Model = Static<typeof Model>;

/**
 * Models page the way the SDK's `Page` expects: ids as cursors, `has_more`. `lifecycle` lists
 * the stages shown (the SDK: `active` and `deprecated` when omitted; `retired` only when asked).
 */
export const ModelListQuery = Closed({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
  after_id: Type.Optional(Type.String({ minLength: 1 })),
  before_id: Type.Optional(Type.String({ minLength: 1 })),
  lifecycle: Type.Optional(Type.Array(ModelLifecycle, { minItems: 1, maxItems: MODEL_LIFECYCLES.length, uniqueItems: true })),
});
export type ModelListQuery = Static<typeof ModelListQuery>;

export const ModelIdRequest = Closed({ model_id: Type.String() });

export const ModelPage = Type.Object({
  data: Type.Array(Model),
  has_more: Type.Boolean(),
  first_id: Nullable(Type.String()),
  last_id: Nullable(Type.String()),
});
export type ModelPage = Static<typeof ModelPage>;
