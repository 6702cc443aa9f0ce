import { Type, type Static } from '@sinclair/typebox';
import { Closed, Nullable } from './common';

/** Public list price per million tokens, in USD minor units (cents) as integer strings. */
export const ModelListPrice = Closed({
  currency: Type.Literal('USD'),
  input_per_million_tokens: Type.String({ pattern: '^(0|[1-9][0-9]*)$' }),
  output_per_million_tokens: Type.String({ pattern: '^(0|[1-9][0-9]*)$' }),
});

export const Model = Closed({
  type: Type.Literal('model'),
  id: Type.String(),
  display_name: Type.String(),
  created_at: Type.String(),
  /** Null when the model has no public list price: budgets cannot be set on such agents. */
  list_price: Nullable(ModelListPrice),
  /** Whether the model accepts `system.message` events mid-conversation. */
  supports_system_messages: Type.Boolean(),
});
export type Model = Static<typeof Model>;

/** Models page the way the SDK's `Page` expects: ids as cursors, `has_more`. */
export const ModelListQuery = Closed({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
  after_id: Type.Optional(Type.String({ minLength: 1 })),
  before_id: Type.Optional(Type.String({ minLength: 1 })),
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
