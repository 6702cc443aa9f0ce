/**
 * A built-in tool's configuration as a resolved agent holds it (shared/agents/agent-tools.ts):
 * its name is also its type, `enabled` and the permission policy are always spelled out, and
 * `fields` are the tool's own settings. For expectations in the catalog's unit and API tests.
 */
export const resolvedToolConfig = <Name extends string, Policy extends 'always_allow' | 'always_ask', Fields extends object = {}>(
  name: Name,
  enabled: boolean,
  policy: Policy,
  fields: Fields = {} as Fields,
): { name: Name; type: Name; enabled: boolean; permission_policy: { type: Policy } } & Fields => ({ name, type: name, enabled, permission_policy: { type: policy }, ...fields });
