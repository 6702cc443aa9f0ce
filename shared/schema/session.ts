import { Type, type Static } from '@sinclair/typebox';
import { defineEvent } from '../bus/event';
import { Closed, CreatedAtBounds, IdOf, IdParam, Nullable, PagePosition } from './common';
import { IdRequest, LifecycleTimestamps } from './resource-shapes';
import { Budget, RunConfiguration } from './deployment';
import { AgentReference } from './deployment-run';

/**
 * A session, as a deployment's fire creates it: a snapshot of what the deployment said at that
 * moment (agent pinned to its version, environment, vaults, resources in their returned form,
 * budget, initial events, metadata). Running the agent is outside this product, so a session
 * stays `idle` here; `title`, `outcome_evaluations`, `stats` and `usage` are the SDK's required
 * fields in their empty state, so clients that read them get well-formed values.
 */
export const SESSION_STATUSES = ['rescheduling', 'running', 'idle', 'terminated'] as const;
export const SessionStatus = Type.Union(SESSION_STATUSES.map((s) => Type.Literal(s)));
export type SessionStatus = Static<typeof SessionStatus>;

export const Session = Closed({
  type: Type.Literal('session'),
  id: Type.String(),
  deployment_id: Nullable(Type.String()),
  ...RunConfiguration,
  budget: Nullable(Budget),
  status: SessionStatus,
  title: Nullable(Type.String()),
  outcome_evaluations: Type.Array(Type.Unknown()),
  stats: Type.Object({}, { additionalProperties: true }),
  usage: Type.Object({}, { additionalProperties: true }),
  ...LifecycleTimestamps,
});
export type Session = Static<typeof Session>;

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
export const SessionIdRequest = IdRequest('session_id', 'session');

/**
 * Announces a new session to the agent runtime (JetStream subject `sessions.created`): the ids
 * and references it starts from, never content and never a secret. What the session holds
 * (initial events, resources, budget, metadata) can be megabytes, far over what the bus carries;
 * the runtime reads it by id (`rpc.deployments.sessions.get`), so the event stays small whatever
 * the deployment says. Repository tokens stay sealed with their deployment; vault credentials
 * are resolved by the runtime from `vault_ids`.
 */
export const SessionCreated = Closed({
  session_id: IdParam,
  deployment_id: IdParam,
  deployment_run_id: IdParam,
  organization_id: IdParam,
  workspace_id: IdParam,
  agent: AgentReference,
  environment_id: IdParam,
  /** At most what a deployment may name (DeploymentCreateRequest). */
  vault_ids: Type.Array(IdParam, { maxItems: 50 }),
});
export type SessionCreated = Static<typeof SessionCreated>;

export const sessionEvents = {
  created: defineEvent('sessions', 'sessions.created', SessionCreated),
};
