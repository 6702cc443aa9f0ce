import { Type, type Static } from '@sinclair/typebox';
import { defineEvent } from '../bus/event';
import { Closed, IdOf, IdParam, InclusiveCreatedAtBounds, ListReply, ListRequest, Metadata, MetadataPatch, Nullable, StoredMetadata } from './common';
import { ArchivableListFilters, IdRequest, ReturnedResource, UpdateRequest } from './resource-shapes';
import { AgentTool, AgentToolsParams, McpServer, McpServersParams, AgentSkill, SkillsParams } from './agent-tools';
import { Multiagent, MultiagentParam } from './agent-multiagent';

/**
 * The agent resource (SDK `BetaManagedAgentsAgent`). Every change creates a new immutable
 * version; `version` is the one shown. Tools, MCP servers and skills are in agent-tools.ts,
 * the multiagent configuration in agent-multiagent.ts (params and response forms); `Agent` is
 * the whole of one version, which sessions snapshot.
 */

const EFFORT_LEVELS = ['low', 'medium', 'high', 'xhigh', 'max'] as const;
const EffortLevel = Type.Union(EFFORT_LEVELS.map((l) => Type.Literal(l)));
const EffortObject = Closed({ type: EffortLevel });
export type EffortObject = Static<typeof EffortObject>;

/** Response form: the model id plus whatever configuration was given (effort as an object). */
export const AgentModelConfig = Closed({
  id: Type.String(),
  effort: Type.Optional(EffortObject),
  inference_geo: Type.Optional(Type.String()),
  speed: Type.Optional(Type.Union([Type.Literal('standard'), Type.Literal('fast')])),
});
export type AgentModelConfig = Static<typeof AgentModelConfig>;

export const AgentModelConfigParams = Closed({
  id: Type.String({ minLength: 1, maxLength: 256 }),
  effort: Type.Optional(Nullable(Type.Union([EffortLevel, EffortObject], { description: 'must be one of "low", "medium", "high", "xhigh", "max" or {"type": <level>}' }))),
  inference_geo: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 64 }))),
  speed: Type.Optional(Nullable(Type.Union([Type.Literal('standard'), Type.Literal('fast')]))),
});
export type AgentModelConfigParams = Static<typeof AgentModelConfigParams>;

/** A model id string, or a model configuration object. */
export const AgentModelParam = Type.Union([Type.String({ minLength: 1, maxLength: 256 }), AgentModelConfigParams], {
  description: 'must be a model id or an object with an `id`',
});
export type AgentModelParam = Static<typeof AgentModelParam>;

const ServiceAccountIdentity = Closed({ type: Type.Literal('service_account') });
const AwsRoleIdentity = Closed({ type: Type.Literal('aws_role'), role_arn: Type.String({ minLength: 1, maxLength: 2048 }) });
export const ExecutionIdentity = Type.Union([ServiceAccountIdentity, AwsRoleIdentity]);
export type ExecutionIdentity = Static<typeof ExecutionIdentity>;
/** Flat (not a nested union), so a bad variant's own error is the one reported. */
const ExecutionIdentityParam = Type.Union([ServiceAccountIdentity, AwsRoleIdentity, Type.Null()]);

const AgentDescription = Type.String({ maxLength: 2048 });
const AgentSystem = Type.String({ maxLength: 100_000 });
const AgentName = Type.String({ minLength: 1, maxLength: 256 });

export const AgentCreateBody = Closed({
  name: AgentName,
  description: Type.Optional(Nullable(AgentDescription)),
  model: AgentModelParam,
  system: Type.Optional(Nullable(AgentSystem)),
  metadata: Type.Optional(Metadata),
  execution_identity: Type.Optional(ExecutionIdentityParam),
  tools: Type.Optional(AgentToolsParams),
  mcp_servers: Type.Optional(McpServersParams),
  skills: Type.Optional(SkillsParams),
  multiagent: Type.Optional(MultiagentParam),
});
export type AgentCreateBody = Static<typeof AgentCreateBody>;

/**
 * Omitted fields are preserved; `version`, when given, must equal the current version. `tools`,
 * `mcp_servers` and `skills` are replaced whole (null or [] clears them); `multiagent` is replaced,
 * or merged level by level into a stored `multiagent_20261001` (the SDK's rule), null clears it.
 */
export const AgentUpdateBody = Closed({
  name: Type.Optional(AgentName),
  description: Type.Optional(Nullable(AgentDescription)),
  model: Type.Optional(AgentModelParam),
  system: Type.Optional(Nullable(AgentSystem)),
  metadata: Type.Optional(Nullable(MetadataPatch)),
  execution_identity: Type.Optional(ExecutionIdentityParam),
  tools: Type.Optional(Nullable(AgentToolsParams)),
  mcp_servers: Type.Optional(Nullable(McpServersParams)),
  skills: Type.Optional(Nullable(SkillsParams)),
  multiagent: Type.Optional(MultiagentParam),
  version: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647 })),
});
export type AgentUpdateBody = Static<typeof AgentUpdateBody>;

export const Agent = ReturnedResource('agent', {
  version: Type.Integer(),
  name: Type.String(),
  description: Nullable(Type.String()),
  model: AgentModelConfig,
  system: Nullable(Type.String()),
  metadata: StoredMetadata,
  execution_identity: ExecutionIdentity,
  tools: Type.Array(AgentTool),
  mcp_servers: Type.Array(McpServer),
  skills: Type.Array(AgentSkill),
  multiagent: Nullable(Multiagent),
});
export type Agent = Static<typeof Agent>;

export const AgentListFilters = ArchivableListFilters(InclusiveCreatedAtBounds);
export type AgentListFilters = Static<typeof AgentListFilters>;

export const AgentIdRequest = IdRequest('agent_id', 'agent');
export const GetAgentRequest = Closed({ agent_id: IdOf('agent'), version: Type.Optional(Type.Integer({ minimum: 1 })) });
export const UpdateAgentRequest = UpdateRequest('agent_id', 'agent', AgentUpdateBody);
export const AgentListRequest = ListRequest(AgentListFilters);
export const AgentListReply = ListReply(Agent);

/**
 * An agent's versions, newest first (`GET /v1/agents/{id}/versions`). The agent is a filter, so
 * a cursor is bound to it like to any other filter; a page position's `id` is the version number.
 */
export const AgentVersionListFilters = Closed({ agent_id: IdOf('agent') });
export type AgentVersionListFilters = Static<typeof AgentVersionListFilters>;
export const AgentVersionListRequest = ListRequest(AgentVersionListFilters);

export const AgentEventPayload = Closed({ agent_id: IdParam });
export const agentEvents = {
  archived: defineEvent('catalog', 'catalog.agent.archived', AgentEventPayload),
  /** A new version became the latest: what `agent: "<id>"` resolves to changed (a deployments replica's reference cache drops it). */
  updated: defineEvent('catalog', 'catalog.agent.updated', AgentEventPayload),
};
