import { Type, type Static, type TNull, type TSchema } from '@sinclair/typebox';
import { Closed } from './common';

/** The permission policies and per-tool defaults every toolset shares (SDK agents.d.ts). */

/**
 * A union of object variants, or null, written flat: the validator picks the variant a value's
 * `type` names and reports that variant's own error; a union nested inside a nullable one could
 * only say "does not match". `description` is what a value that names no variant is told.
 */
export const unionOrNull = <T extends TSchema[]>(variants: [...T], description: string) =>
  Type.Union([...variants, Type.Null()] as [...T, TNull], { description });

// ---------------------------------------------------------------------------------------------
// Permission policies and default configurations

/** `enabled` as sent: null means the default. */
export const BooleanOrNull = Type.Union([Type.Boolean(), Type.Null()], { description: 'must be a boolean or null' });

const AlwaysAllow = Closed({ type: Type.Literal('always_allow') });
const AlwaysAsk = Closed({ type: Type.Literal('always_ask') });
const AutoPolicy = Closed({ type: Type.Literal('auto') });
const POLICY_FORMS = 'must be {"type": "always_allow"}, {"type": "always_ask"} or {"type": "auto"}';
export const PermissionPolicy = Type.Union([AlwaysAllow, AlwaysAsk, AutoPolicy], { description: POLICY_FORMS });
export type PermissionPolicy = Static<typeof PermissionPolicy>;
export const PermissionPolicyParam = unionOrNull([AlwaysAllow, AlwaysAsk, AutoPolicy], POLICY_FORMS);

/** `default_config` as sent: both keys optional, null meaning the default. */
export const ToolsetDefaultConfigParams = Closed({
  enabled: Type.Optional(BooleanOrNull),
  permission_policy: Type.Optional(PermissionPolicyParam),
});
export type ToolsetDefaultConfigParams = Static<typeof ToolsetDefaultConfigParams>;

/** `default_config` as returned: resolved. */
export const ToolsetDefaultConfig = Closed({ enabled: Type.Boolean(), permission_policy: PermissionPolicy });
export type ToolsetDefaultConfig = Static<typeof ToolsetDefaultConfig>;

