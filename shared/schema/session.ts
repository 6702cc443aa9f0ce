import { Type, type Static, type TObject } from '@sinclair/typebox';
import { defineEvent } from '../bus/event';
import { Closed, CreatedAtBounds, IdOf, IdParam, ListReply, ListRequest, Metadata, MetadataPatch, Nullable, PagePosition, StoredMetadata, Timestamp } from './common';
import { Deleted, IdRequest, ReturnedResource, UpdateRequest } from './resource-shapes';
import { Agent, AgentCreateBody } from './agent';
import { Advisor, Multiagent20261001 } from './agent-multiagent';
import {
  AgentParam,
  Budget,
  INITIAL_EVENTS_MAX_BYTES,
  InitialEvent,
  InitialEventParams,
  RESOURCES_MAX_BYTES,
  SessionResourceConfig,
  SessionResourceParams,
} from './deployment';
import { AgentReference } from './deployment-run';

/**
 * A session (SDK `BetaManagedAgentsSession`), created by `POST /v1/sessions` or by a
 * deployment's fire through the same path (services/deployments/src/domain/session-create.ts).
 * It carries a snapshot of its agent version, taken at creation and never refreshed (agent
 * versions are immutable); resources with their own ids; this product's `initial_events`
 * (PRODUCT.md section 3). Running the agent is outside this product so far, so `usage` and
 * `stats` are the SDK's shapes at zero.
 */
export const SESSION_STATUSES = ['rescheduling', 'running', 'idle', 'terminated'] as const;
export const SessionStatus = Type.Union(SESSION_STATUSES.map((s) => Type.Literal(s)));
export type SessionStatus = Static<typeof SessionStatus>;

/**
 * The agent as the session runs it (SDK `BetaManagedAgentsSessionAgent`): the agent version's
 * definition without what belongs to the agent resource itself (metadata, timestamps). Built
 * from `Agent`, so a field the catalog adds to agents reaches sessions with no second copy. Its
 * `multiagent` names no agent by reference: every roster member is the full definition of the
 * version it names (SDK `BetaManagedAgentsSessionThreadAgent`: the same, without `multiagent`).
 */
const AgentDefinition = Type.Omit(Agent, ['metadata', 'created_at', 'updated_at', 'archived_at', 'multiagent']);
export const SessionThreadAgent = Closed(AgentDefinition.properties);
export type SessionThreadAgent = Static<typeof SessionThreadAgent>;

const Spawning = Multiagent20261001.properties.subagents.anyOf;
const SessionSpawning = Type.Union([
  Closed({
    inline_agents: Spawning[0].properties.inline_agents,
    predefined_agents: Type.Array(SessionThreadAgent),
    type: Type.Literal('enabled'),
  }),
  Spawning[1],
]);
/** SDK `BetaManagedAgentsSessionMultiagent`: the agent's `multiagent` with its roster resolved to definitions. */
export const SessionMultiagent = Type.Union([
  Closed({ agents: Type.Array(Type.Union([SessionThreadAgent, Advisor])), type: Type.Literal('coordinator') }),
  Closed({
    advisor: Multiagent20261001.properties.advisor,
    subagents: SessionSpawning,
    type: Type.Literal('multiagent_20261001'),
    workflows: SessionSpawning,
  }),
]);
export type SessionMultiagent = Static<typeof SessionMultiagent>;

export const SessionAgent = Closed({ ...AgentDefinition.properties, multiagent: Nullable(SessionMultiagent) });
export type SessionAgent = Static<typeof SessionAgent>;

/** What every session resource carries besides its configuration (SDK: `id`, `created_at`, `updated_at`). */
const ResourceIdentity = { id: Type.String(), created_at: Timestamp, updated_at: Timestamp };
const identified = <T extends TObject>(config: T) => Closed({ ...ResourceIdentity, ...config.properties } as typeof ResourceIdentity & T['properties']);
const [hostedRepository, githubRepository, fileResource, memoryStoreResource] = SessionResourceConfig.anyOf;

/** A resource of a session as returned: its configuration (defaults filled, token never) and its identity. */
export const SessionResource = Type.Union([
  identified(hostedRepository),
  identified(githubRepository),
  identified(fileResource),
  identified(memoryStoreResource),
]);
export type SessionResource = Static<typeof SessionResource>;

/**
 * A resource as a session row stores it: the configuration, and its identity once it has one of
 * its own. Resources copied at creation (a fire copies hundreds per second) get theirs derived
 * from the session id and their position until the list first changes (see domain/session-resources.ts).
 */
export type StoredSessionResource = SessionResourceConfig & Partial<Pick<SessionResource, 'id' | 'created_at' | 'updated_at'>>;

/** SDK `BetaManagedAgentsOutcomeEvaluationResource`. */
export const OutcomeEvaluation = Closed({
  type: Type.Literal('outcome_evaluation'),
  outcome_id: Type.String(),
  description: Type.String(),
  result: Type.String(),
  iteration: Type.Integer(),
  explanation: Nullable(Type.String()),
  completed_at: Nullable(Timestamp),
});
export type OutcomeEvaluation = Static<typeof OutcomeEvaluation>;

/** SDK `BetaManagedAgentsSessionStats`: every field optional there. */
export const SessionStats = Closed({
  active_seconds: Type.Optional(Type.Number()),
  duration_seconds: Type.Optional(Type.Number()),
});

const Amount = Closed({ currency: Type.String(), amount: Type.String() });
/** SDK `BetaManagedAgentsSessionUsage`: every field optional there. */
export const SessionUsage = Closed({
  active_seconds: Type.Optional(Type.Number()),
  cache_creation: Type.Optional(
    Closed({ ephemeral_1h_input_tokens: Type.Optional(Type.Integer()), ephemeral_5m_input_tokens: Type.Optional(Type.Integer()) }),
  ),
  cache_read_input_tokens: Type.Optional(Type.Integer()),
  input_tokens: Type.Optional(Type.Integer()),
  output_tokens: Type.Optional(Type.Integer()),
  list_cost: Type.Optional(Nullable(Amount)),
  server_tool_use: Type.Optional(
    Nullable(Closed({ web_fetch_requests: Type.Optional(Type.Integer()), web_search_requests: Type.Optional(Type.Integer()) })),
  ),
});

export type SessionUsage = Static<typeof SessionUsage>;

export const Session = ReturnedResource('session', {
  deployment_id: Nullable(Type.String()),
  agent: SessionAgent,
  environment_id: Type.String(),
  vault_ids: Type.Array(Type.String()),
  /** This product's: the events the session was created with (also the first events of its log). */
  initial_events: Type.Array(InitialEvent),
  resources: Type.Array(SessionResource),
  metadata: StoredMetadata,
  budget: Nullable(Budget),
  status: SessionStatus,
  title: Nullable(Type.String()),
  outcome_evaluations: Type.Array(OutcomeEvaluation),
  stats: SessionStats,
  usage: SessionUsage,
});
export type Session = Static<typeof Session>;

// ---------------------------------------------------------------------------------------------
// Create and update (SDK `SessionCreateParams`, `SessionUpdateParams`)

export const SESSION_TITLE_MAX_CHARS = 512;
const Title = Type.String({ maxLength: SESSION_TITLE_MAX_CHARS });

/**
 * `agent_with_overrides` is recognised so that it can be refused by name (the deployments
 * service answers 400 on `agent`): its overrides replace tools, MCP servers, skills and the
 * model, whose rules the catalog owns; until the catalog validates such a definition, a session
 * runs an agent version as it is.
 */
export const AgentWithOverridesParam = Type.Object(
  { type: Type.Literal('agent_with_overrides') },
  { additionalProperties: true },
);
export const SessionAgentParam = Type.Union([...AgentParam.anyOf, AgentWithOverridesParam], {
  description: 'must be an agent id of 1 to 128 characters or {"type": "agent", "id", "version"}',
});

/** The deployment's initial event kinds and rules (system.message included), 0 to 50 of them. */
export const SessionInitialEventParams = Type.Array(InitialEventParams, { maxItems: 50, maxBytes: INITIAL_EVENTS_MAX_BYTES });
export const SessionResourceParamsList = Type.Array(SessionResourceParams, { maxItems: 500, maxBytes: RESOURCES_MAX_BYTES });

export const SessionCreateRequest = Closed({
  agent: SessionAgentParam,
  environment_id: Type.String({ minLength: 1, maxLength: 128 }),
  vault_ids: Type.Optional(Type.Array(IdParam, { maxItems: 50 })),
  initial_events: Type.Optional(SessionInitialEventParams),
  resources: Type.Optional(SessionResourceParamsList),
  metadata: Type.Optional(Metadata),
  title: Type.Optional(Nullable(Title)),
  budget: Type.Optional(Budget),
});
export type SessionCreateRequest = Static<typeof SessionCreateRequest>;

/**
 * SDK `BetaManagedAgentsSessionAgentUpdate`: only `tools` and `mcp_servers`, each replaced whole;
 * their request forms are the agent's own (AgentCreateBody), so they follow the catalog's rules.
 */
export const SessionAgentUpdate = Type.Pick(AgentCreateBody, ['tools', 'mcp_servers']);

/**
 * POST /v1/sessions/{id}: omitted preserves; `title` clears with null; `metadata` is a patch (a
 * string upserts, null deletes, the 16-pair limit applies to the result); `budget` replaces (an
 * object) or removes (null) under the SDK's rules (`budget_create_only`, `budget_not_raised`,
 * `model_not_budgetable`); `vault_ids` is reserved by the SDK and refused.
 */
export const SessionUpdateRequest = Closed({
  agent: Type.Optional(SessionAgentUpdate),
  budget: Type.Optional(Nullable(Budget)),
  metadata: Type.Optional(Nullable(MetadataPatch)),
  title: Type.Optional(Nullable(Title)),
  vault_ids: Type.Optional(Type.Array(IdParam, { maxItems: 50 })),
});
export type SessionUpdateRequest = Static<typeof SessionUpdateRequest>;
export const UpdateSessionRequest = UpdateRequest('session_id', 'session', SessionUpdateRequest);

export const SessionIdRequest = IdRequest('session_id', 'session');
export const SessionDeleted = Deleted('session_deleted');

// ---------------------------------------------------------------------------------------------
// Listing

export const SessionListOrder = Type.Union([Type.Literal('asc'), Type.Literal('desc')]);
export type SessionListOrder = Static<typeof SessionListOrder>;

/**
 * Filters as the deployments service receives them, already checked for consistency by the
 * gateway: `agent_version` only with `agent_id`; time bounds as exact millisecond instants;
 * `statuses` deduplicated in SESSION_STATUSES order (so a cursor does not depend on how the
 * client ordered them). `order` is the direction of the list, a filter like the others so a
 * cursor is bound to it.
 */
export const SessionListFilters = Closed({
  deployment_id: Type.Optional(IdOf('deployment')),
  agent_id: Type.Optional(IdOf('agent')),
  agent_version: Type.Optional(Type.Integer({ minimum: 1 })),
  ...CreatedAtBounds,
  include_archived: Type.Boolean(),
  memory_store_id: Type.Optional(IdOf('memoryStore')),
  statuses: Type.Optional(Type.Array(SessionStatus, { minItems: 1 })),
  order: SessionListOrder,
});
export type SessionListFilters = Static<typeof SessionListFilters>;

const Position = Type.Union([PagePosition, Type.Null()]);

/**
 * Bus form of a sessions page, which pages both ways (the SDK's bidirectional cursor): `after`
 * asks for the page following a position, `before` for the page preceding it, both in the
 * list's own order; at most one of them is set, neither for the first page.
 */
export const SessionListRequest = Closed({ filters: SessionListFilters, limit: Type.Integer({ minimum: 1, maximum: 1000 }), after: Position, before: Position });
export type SessionListRequest = Static<typeof SessionListRequest>;

/** `next`: the position the following page starts after (null on the last page); `prev`: the one the preceding page ends before (null on the first). */
export const SessionListReply = Closed({ data: Type.Array(Session), next: Position, prev: Position });

// ---------------------------------------------------------------------------------------------
// Session resources (`/v1/sessions/{id}/resources`, SDK resources.d.ts)

/** SDK `ResourceUpdateParams`: a new token; only repository resources take one. */
export const SessionResourceUpdateRequest = Closed({ authorization_token: Type.String({ minLength: 1, maxLength: 4096 }) });
export type SessionResourceUpdateRequest = Static<typeof SessionResourceUpdateRequest>;

const SessionAndResource = { session_id: IdOf('session'), resource_id: IdOf('sessionResource') };
export const SessionResourceIdRequest = Closed(SessionAndResource);
export const AddSessionResourceRequest = Closed({ session_id: IdOf('session'), resource: SessionResourceParams });
export const UpdateSessionResourceRequest = Closed({ ...SessionAndResource, update: SessionResourceUpdateRequest });
export const SessionResourceListFilters = Closed({ session_id: IdOf('session') });
export type SessionResourceListFilters = Static<typeof SessionResourceListFilters>;
export const SessionResourceListRequest = ListRequest(SessionResourceListFilters);
export const SessionResourceListReply = ListReply(SessionResource);
export const SessionResourceDeleted = Deleted('session_resource_deleted');

// ---------------------------------------------------------------------------------------------
// Events on the bus

/**
 * Announces a new session to the agent runtime (JetStream subject `sessions.created`): the ids
 * and references it starts from, never content and never a secret. What the session holds
 * (initial events, resources, budget, metadata) can be megabytes, far over what the bus carries;
 * the runtime reads it by id (`rpc.deployments.sessions.get`), so the event stays small whatever
 * the session says. `deployment_id` and `deployment_run_id` are null for a session created
 * through `POST /v1/sessions`. Vault credentials are resolved by the runtime from `vault_ids`.
 */
export const SessionCreated = Closed({
  session_id: IdParam,
  deployment_id: Nullable(IdParam),
  deployment_run_id: Nullable(IdParam),
  organization_id: IdParam,
  workspace_id: IdParam,
  agent: AgentReference,
  environment_id: IdParam,
  /** At most what a deployment or a session may name. */
  vault_ids: Type.Array(IdParam, { maxItems: 50 }),
  /**
   * How many events the session's log begins with (its initial events). An empty log has nothing
   * to drive: the runtime starts on such a session at its first sent event's notice. Absent from
   * a deployments replica older than the field: driven as before.
   */
  initial_events: Type.Optional(Type.Integer({ minimum: 0 })),
});
export type SessionCreated = Static<typeof SessionCreated>;

export const sessionEvents = {
  created: defineEvent('sessions', 'sessions.created', SessionCreated),
};
