import { Type, type Static } from '@sinclair/typebox';
import { defineEvent } from '../bus/event';
import { IdParam, ListReply, ListRequest, Nullable, Timestamp } from './common';
import { Budget, InitialEvent, SessionResourceConfig } from './deployment';
import { AgentReference } from './deployment-run';

/**
 * A session, as a deployment's fire creates it: a snapshot of what the deployment said at that
 * moment (agent pinned to its version, environment, vaults, resources in their returned form,
 * budget, initial events, metadata). Running the agent is outside this product, so a session
 * stays `idle` here; `title`, `outcome_evaluations`, `stats` and `usage` are the SDK's required
 * fields in their empty state, so clients that read them get well-formed values.
 */
export const SessionStatus = Type.Union([
  Type.Literal('rescheduling'),
  Type.Literal('running'),
  Type.Literal('idle'),
  Type.Literal('terminated'),
]);
export type SessionStatus = Static<typeof SessionStatus>;

export const Session = Type.Object(
  {
    type: Type.Literal('session'),
    id: Type.String(),
    deployment_id: Nullable(Type.String()),
    agent: AgentReference,
    environment_id: Type.String(),
    vault_ids: Type.Array(Type.String()),
    resources: Type.Array(SessionResourceConfig),
    budget: Nullable(Budget),
    initial_events: Type.Array(InitialEvent),
    status: SessionStatus,
    metadata: Type.Record(Type.String(), Type.String()),
    title: Nullable(Type.String()),
    outcome_evaluations: Type.Array(Type.Unknown()),
    stats: Type.Object({}, { additionalProperties: true }),
    usage: Type.Object({}, { additionalProperties: true }),
    created_at: Timestamp,
    updated_at: Timestamp,
    archived_at: Nullable(Timestamp),
  },
  { additionalProperties: false },
);
export type Session = Static<typeof Session>;

export const SessionListFilters = Type.Object(
  { deployment_id: Type.Optional(Type.String()) },
  { additionalProperties: false },
);
export type SessionListFilters = Static<typeof SessionListFilters>;
export const SessionListRequest = ListRequest(SessionListFilters);
export const SessionListReply = ListReply(Session);
export const SessionIdRequest = Type.Object({ session_id: IdParam }, { additionalProperties: false });

/**
 * Announces a new session to the agent runtime (JetStream subject `sessions.created`): what it
 * needs to start the session, and never a secret. Repository tokens stay sealed with their
 * deployment; vault credentials are resolved by the runtime from `vault_ids`.
 */
export const SessionCreated = Type.Object(
  {
    session_id: Type.String(),
    deployment_id: Type.String(),
    deployment_run_id: Type.String(),
    organization_id: Type.String(),
    workspace_id: Type.String(),
    agent: AgentReference,
    environment_id: Type.String(),
    vault_ids: Type.Array(Type.String()),
    resources: Type.Array(SessionResourceConfig),
    initial_events: Type.Array(InitialEvent),
    budget: Nullable(Budget),
  },
  { additionalProperties: false },
);
export type SessionCreated = Static<typeof SessionCreated>;

export const sessionEvents = {
  created: defineEvent('sessions', 'sessions.created', SessionCreated),
};
