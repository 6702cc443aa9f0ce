import { Kind, type TSchema } from '@sinclair/typebox';
import * as agent from '@shared/schema/agent';
import * as agentMultiagent from '@shared/schema/agent-multiagent';
import * as agentCustomTools from '@shared/schema/agent-custom-tools';
import * as agentMcpTools from '@shared/schema/agent-mcp-tools';
import * as agentToolPolicies from '@shared/schema/agent-tool-policies';
import * as agentTools from '@shared/schema/agent-tools';
import * as common from '@shared/schema/common';
import * as deployment from '@shared/schema/deployment';
import * as deploymentEvents from '@shared/schema/deployment-events';
import * as deploymentRun from '@shared/schema/deployment-run';
import * as environment from '@shared/schema/environment';
import * as file from '@shared/schema/file';
import * as health from '@shared/schema/health';
import * as memory from '@shared/schema/memory';
import * as memoryStore from '@shared/schema/memory-store';
import * as memoryVersion from '@shared/schema/memory-version';
import * as skill from '@shared/schema/skill';
import * as model from '@shared/schema/model';
import * as references from '@shared/schema/references';
import * as resourceShapes from '@shared/schema/resource-shapes';
import * as rfc3339 from '@shared/schema/rfc3339';
import * as sandboxPolicy from '@shared/schema/sandbox-policy';
import * as session from '@shared/schema/session';
import * as orNull from '@shared/schema/or-null';
import * as sessionEvent from '@shared/schema/session-event';
import * as sessionResource from '@shared/schema/session-resource';
import * as sessionEventBus from '@shared/schema/session-event-bus';
import * as sessionEventLog from '@shared/schema/session-event-log';
import * as sessionEventParams from '@shared/schema/session-event-params';
import * as sessionPreview from '@shared/schema/session-preview';
import * as tenant from '@shared/schema/tenant';
import * as vault from '@shared/schema/vault';
import * as vaultCredential from '@shared/schema/vault-credential';
import * as vaultCredentialValidation from '@shared/schema/vault-credential-validation';
import * as work from '@shared/schema/work';

/**
 * Every module of shared/schema/, where every schema the gateway validates with or answers is
 * declared (a test checks that none is missing). Their exported names are the names the
 * OpenAPI document gives those schemas.
 */
export const SCHEMA_MODULES: Record<string, Record<string, unknown>> = {
  agent,
  'agent-multiagent': agentMultiagent,
  'agent-custom-tools': agentCustomTools,
  'agent-mcp-tools': agentMcpTools,
  'agent-tool-policies': agentToolPolicies,
  'agent-tools': agentTools,
  common,
  deployment,
  'deployment-events': deploymentEvents,
  'deployment-run': deploymentRun,
  environment,
  file,
  health,
  memory,
  'memory-store': memoryStore,
  'memory-version': memoryVersion,
  skill,
  model,
  references,
  'resource-shapes': resourceShapes,
  rfc3339,
  'sandbox-policy': sandboxPolicy,
  session,
  'or-null': orNull,
  'session-event': sessionEvent,
  'session-resource': sessionResource,
  'session-event-bus': sessionEventBus,
  'session-event-log': sessionEventLog,
  'session-event-params': sessionEventParams,
  'session-preview': sessionPreview,
  tenant,
  vault,
  'vault-credential': vaultCredential,
  'vault-credential-validation': vaultCredentialValidation,
  work,
};

const isSchema = (value: unknown): value is TSchema => typeof value === 'object' && value !== null && Kind in value;

/**
 * Only shapes get a name of their own (objects, unions, maps): a constrained string or number
 * reads better where it is used (`string, 1 to 256 characters`) than behind a reference.
 */
const isShape = (schema: TSchema) => 'properties' in schema || 'anyOf' in schema || 'patternProperties' in schema;

/**
 * The exported schemas of shared/schema/ by identity, each with its export name. A schema
 * exported under two names keeps the first (modules in the order above, exports in theirs); two
 * different schemas under one name are a mistake the document cannot show, so it throws.
 */
export function schemaNames(modules: Record<string, Record<string, unknown>> = SCHEMA_MODULES): Map<TSchema, string> {
  const names = new Map<TSchema, string>();
  const owners = new Map<string, string>();
  for (const [moduleName, exports] of Object.entries(modules)) {
    for (const [name, value] of Object.entries(exports)) {
      if (!isSchema(value) || !isShape(value) || names.has(value)) continue;
      const owner = owners.get(name);
      if (owner !== undefined) throw new Error(`schema name ${name} is exported by both shared/schema/${owner}.ts and ${moduleName}.ts`);
      owners.set(name, moduleName);
      names.set(value, name);
    }
  }
  return names;
}
