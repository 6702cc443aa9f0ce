import { Type, type Static } from '@sinclair/typebox';
import { Closed, Nullable } from './common';
import { BooleanOrNull, PermissionPolicy, PermissionPolicyParam, ToolsetDefaultConfig, ToolsetDefaultConfigParams } from './agent-tool-policies';

/** Custom tools: the client runs them; the agent only sees their schema (SDK agents.d.ts). */

// ---------------------------------------------------------------------------------------------
// Custom tools

/** The largest custom tool input schema, as JSON. */
export const INPUT_SCHEMA_MAX_BYTES = 64 * 1024;

/** A property's own schema: JSON Schema allows an object or a boolean. */
const PropertySchema = Type.Union([Type.Object({}), Type.Boolean()], { description: 'must be a JSON Schema (an object or a boolean)' });

/**
 * A custom tool's input: a JSON Schema whose root is an object schema. Besides `type`,
 * `properties` and `required` it may use any JSON Schema keyword, returned as given.
 */
export const CustomToolInputSchema = Type.Object(
  {
    type: Type.Literal('object'),
    properties: Type.Optional(Nullable(Type.Record(Type.String(), PropertySchema))),
    required: Type.Optional(Nullable(Type.Array(Type.String({ minLength: 1, maxLength: 256 }), { maxItems: 1024 }))),
  },
  { additionalProperties: true, maxBytes: INPUT_SCHEMA_MAX_BYTES },
);
export type CustomToolInputSchema = Static<typeof CustomToolInputSchema>;

/** 1 to 128 letters, digits, underscores and hyphens (the SDK's rule). */
export const CustomToolName = Type.String({
  pattern: '^[A-Za-z0-9_-]{1,128}$',
  description: 'must be 1 to 128 letters, digits, underscores or hyphens',
});

export const CustomToolParams = Closed({
  type: Type.Literal('custom'),
  name: CustomToolName,
  description: Type.String({ minLength: 1, maxLength: 10_000 }),
  input_schema: CustomToolInputSchema,
});
export type CustomToolParams = Static<typeof CustomToolParams>;

export const CustomTool = Closed({
  description: Type.String(),
  input_schema: Type.Object(
    {
      type: Type.Literal('object'),
      properties: Type.Optional(Nullable(Type.Record(Type.String(), Type.Unknown()))),
      required: Type.Optional(Nullable(Type.Array(Type.String()))),
    },
    { additionalProperties: true },
  ),
  name: Type.String(),
  type: Type.Literal('custom'),
});
export type CustomTool = Static<typeof CustomTool>;

