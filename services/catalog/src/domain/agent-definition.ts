import { canonicalJson } from '@shared/json/canonical-json';
import { conflict, invalidRequest } from '@shared/errors/api-error';
import type {
  AgentCreateBody,
  AgentModelConfig,
  AgentModelParam,
  AgentUpdateBody,
  EffortObject,
  ExecutionIdentity,
} from '@shared/schema/agent';
import type { AgentTool, AgentToolParams, McpServer, McpServerParams, AgentSkill, SkillParams } from '@shared/schema/agent-tools';
import type { Multiagent, MultiagentParams } from '@shared/schema/agent-multiagent';
import type { Model } from '@shared/schema/model';
import { applyMetadataPatch } from '@shared/metadata/apply-metadata-patch';
import type { AgentRow, AgentVersionRow } from '../db/schema';
import { mergeMultiagent, pinSelf, resolveMultiagent, withoutSelfVersions, type RosterLookup, type SelfReference } from './agent-multiagent';
import { resolveMcpServers, resolveSkills, resolveTools } from '@shared/agents/agent-tools';
import { DEFAULT_MCP_URL_RULES, type McpUrlRules } from '@shared/agents/mcp-server-url';
import { refuseArchived } from './owned-row';

/** What one agent version holds; everything else (id, tenant, timestamps) belongs to the agent. */
export interface AgentDefinition {
  name: string;
  description: string | null;
  model: AgentModelConfig;
  system: string | null;
  metadata: Record<string, string>;
  executionIdentity: ExecutionIdentity;
  tools: AgentTool[];
  mcpServers: McpServer[];
  skills: AgentSkill[];
  multiagent: Multiagent | null;
}

export interface ModelLookup {
  find(id: string): Model | undefined;
}

/** The definition a stored version holds. */
export const definitionOf = (version: AgentVersionRow): AgentDefinition => ({
  name: version.name,
  description: version.description,
  model: version.model,
  system: version.system,
  metadata: version.metadata,
  executionIdentity: version.executionIdentity,
  tools: version.tools,
  mcpServers: version.mcpServers,
  skills: version.skills,
  multiagent: version.multiagent,
});

/** The loaded agents as a roster looks them up: by id, at the version named or (none named) the latest. */
export function rosterLookup(found: Array<{ agent: AgentRow; version: AgentVersionRow }>): RosterLookup {
  return (id, version) => {
    const match = found.find((f) => f.agent.id === id && f.version.version === (version ?? f.agent.latestVersion));
    return (
      match && {
        id,
        version: match.version.version,
        archived: match.agent.archivedAt !== null,
        hasMultiagent: match.version.multiagent !== null,
      }
    );
  };
}

/** Who the version being saved is (for `self` in a multiagent configuration), and the agents it may name, loaded. */
export interface RosterContext {
  self: SelfReference;
  lookup: RosterLookup;
}

/**
 * The tools, MCP servers and skills as a version holds them: each resolved, then the rules
 * between them checked on the result (a toolset naming a declared server, every server used).
 * `mcpUrls` null: the servers are the stored version's, kept as they are (an update that leaves
 * them alone is not refused for a URL stored before a stricter rule).
 */
function resolveCapabilities(tools: AgentToolParams[], servers: McpServerParams[], skills: SkillParams[], mcpUrls: McpUrlRules | null) {
  const mcpServers = mcpUrls ? resolveMcpServers(servers, mcpUrls) : (servers as McpServer[]);
  return { tools: resolveTools(tools, mcpServers), mcpServers, skills: resolveSkills(skills) };
}

/**
 * The multiagent configuration an update leaves to resolve: undefined when it keeps the stored
 * one untouched (omitted), else the merged params (null: cleared). The handler loads the agents it names.
 */
export function multiagentToResolve(current: AgentDefinition, patch: AgentUpdateBody): MultiagentParams | null | undefined {
  return patch.multiagent === undefined ? undefined : mergeMultiagent(current.multiagent, patch.multiagent);
}

const DEFAULT_IDENTITY: ExecutionIdentity = { type: 'service_account' };

/** The model must be in the catalog and not retired; the response always shows the object form. */
export function resolveModel(param: AgentModelParam, models: ModelLookup): AgentModelConfig {
  const config = typeof param === 'string' ? { id: param } : param;
  const field = typeof param === 'string' ? 'model' : 'model.id';
  const model = models.find(config.id);
  if (!model) throw invalidRequest(`${field}: unknown model ${JSON.stringify(config.id)}`);
  // A retired model answers no inference request: an agent version naming it could never run.
  if (model.lifecycle === 'retired') throw invalidRequest(`${field}: model ${JSON.stringify(config.id)} is retired`);
  const out: AgentModelConfig = { id: config.id };
  if (typeof param === 'object') {
    if (param.effort != null) out.effort = typeof param.effort === 'string' ? { type: param.effort } : param.effort;
    if (out.effort) checkEffort(model, out.effort.type);
    if (param.inference_geo != null) out.inference_geo = param.inference_geo;
    if (param.speed != null) out.speed = param.speed;
  }
  return out;
}

/** An effort level the model's catalog entry says it does not take is refused (a model without capabilities listed takes any). */
function checkEffort(model: Model, level: EffortObject['type']): void {
  const effort = model.capabilities?.effort;
  if (!effort) return;
  if (!effort.supported) throw invalidRequest(`model.effort: model ${JSON.stringify(model.id)} does not take an effort level`);
  if (!effort[level]?.supported) throw invalidRequest(`model.effort: model ${JSON.stringify(model.id)} does not support effort "${level}"`);
}

export function newAgentDefinition(
  body: AgentCreateBody,
  models: ModelLookup,
  roster: RosterContext,
  mcpUrls: McpUrlRules = DEFAULT_MCP_URL_RULES,
): AgentDefinition {
  return {
    name: body.name,
    description: body.description ?? null,
    model: resolveModel(body.model, models),
    system: body.system ?? null,
    metadata: body.metadata ?? {},
    executionIdentity: body.execution_identity ?? DEFAULT_IDENTITY,
    ...resolveCapabilities(body.tools ?? [], body.mcp_servers ?? [], body.skills ?? [], mcpUrls),
    multiagent: resolveMultiagent(body.multiagent ?? null, roster.self, roster.lookup, models),
  };
}

/**
 * Omitted fields are kept; empty strings and null clear description and system, null or []
 * clears tools, MCP servers and skills (SDK semantics). The rules between tools and servers are
 * checked again on the result, whichever of them changed.
 */
export function applyAgentUpdate(
  current: AgentDefinition,
  patch: AgentUpdateBody,
  models: ModelLookup,
  roster: RosterContext,
  mcpUrls: McpUrlRules = DEFAULT_MCP_URL_RULES,
): AgentDefinition {
  const cleared = (value: string | null | undefined, previous: string | null) =>
    value === undefined ? previous : value === null || value === '' ? null : value;
  const replaced = <P, S>(value: P[] | null | undefined, stored: S[]): Array<P | S> => (value === undefined ? stored : (value ?? []));
  const multiagent = multiagentToResolve(current, patch);
  return {
    name: patch.name ?? current.name,
    description: cleared(patch.description, current.description),
    model: patch.model === undefined ? current.model : resolveModel(patch.model, models),
    system: cleared(patch.system, current.system),
    metadata: applyMetadataPatch(current.metadata, patch.metadata),
    executionIdentity:
      patch.execution_identity === undefined ? current.executionIdentity : (patch.execution_identity ?? DEFAULT_IDENTITY),
    // A stored (resolved) form is also a valid params form, and resolving it again gives it back.
    ...resolveCapabilities(
      replaced(patch.tools, current.tools) as AgentToolParams[],
      replaced(patch.mcp_servers, current.mcpServers),
      replaced(patch.skills, current.skills) as SkillParams[],
      patch.mcp_servers === undefined ? null : mcpUrls,
    ),
    multiagent: pinSelf(
      multiagent === undefined ? current.multiagent : resolveMultiagent(multiagent, roster.self, roster.lookup, models),
      roster.self,
    ),
  };
}

/**
 * A version is only added when something changed: "increments when the agent is modified".
 * `self` references are compared without their version (each version's names itself).
 */
export function sameDefinition(a: AgentDefinition, b: AgentDefinition, agentId: string): boolean {
  const comparable = (d: AgentDefinition) => canonicalJson({ ...d, multiagent: withoutSelfVersions(d.multiagent, agentId) });
  return comparable(a) === comparable(b);
}

/** Archived agents are frozen; a stated version must be the current one (optimistic concurrency). */
export function checkAgentUpdatable(
  agent: { id: string; archivedAt: Date | null; latestVersion: number },
  expectedVersion: number | undefined,
): void {
  refuseArchived('agent', agent);
  if (expectedVersion !== undefined && expectedVersion !== agent.latestVersion) {
    throw conflict(`version: agent ${agent.id} is at version ${agent.latestVersion}, not ${expectedVersion}; fetch it and retry`);
  }
}
