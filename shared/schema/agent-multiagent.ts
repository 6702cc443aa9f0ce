import { Type, type Static } from '@sinclair/typebox';
import { unionOrNull } from './agent-tools';
import { Closed } from './common';
import { AgentReference } from './deployment-run';

/**
 * An agent's multiagent configuration (SDK `BetaManagedAgentsMultiagentParams` ->
 * `BetaManagedAgentsMultiagent`): a `coordinator` roster, or `multiagent_20261001` with its
 * advisor, subagents and workflows. Every agent named is resolved to a concrete version when the
 * agent version is saved (services/catalog/src/domain/agent-multiagent.ts).
 */

/** The most agents a roster or a predefined_agents list may name (the SDK: 1–20, at most 20). */
export const ROSTER_MAX = 20;

const AgentIdText = Type.String({ minLength: 1, maxLength: 128 });
/** `{"type": "agent", "id", "version"?}`: a version given is pinned; without one, the latest. */
const AgentRefParams = Closed({
  type: Type.Literal('agent'),
  id: AgentIdText,
  version: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647 })),
});
/** The agent that owns the configuration, resolved to the version being saved. */
const SelfParams = Closed({ type: Type.Literal('self') });
const ModelId = Type.String({ minLength: 1, maxLength: 256 });
const AdvisorParams = Closed({ model: ModelId, type: Type.Literal('advisor') });

export const RosterEntryParams = Type.Union([AgentIdText, AgentRefParams, SelfParams, AdvisorParams], {
  description: 'must be an agent id, {"type": "agent", "id", "version"?}, {"type": "self"} or {"type": "advisor", "model"}',
});
export type RosterEntryParams = Static<typeof RosterEntryParams>;

export const PredefinedAgentParams = Type.Union([AgentIdText, AgentRefParams, SelfParams], {
  description: 'must be an agent id, {"type": "agent", "id", "version"?} or {"type": "self"}',
});
export type PredefinedAgentParams = Static<typeof PredefinedAgentParams>;

export const CoordinatorParams = Closed({
  type: Type.Literal('coordinator'),
  agents: Type.Array(RosterEntryParams, { minItems: 1, maxItems: ROSTER_MAX }),
});
export type CoordinatorParams = Static<typeof CoordinatorParams>;

const Enabled = Closed({ type: Type.Literal('enabled') });
const Disabled = Closed({ type: Type.Literal('disabled') });
const ENABLED_OR_DISABLED = 'must be {"type": "enabled"} or {"type": "disabled"}';

const InlineAgentsParam = unionOrNull([Enabled, Disabled], ENABLED_OR_DISABLED);
const PredefinedAgentsParam = Type.Union([Type.Array(PredefinedAgentParams, { maxItems: ROSTER_MAX }), Type.Null()]);

export const AdvisorEnabledParams = Closed({ type: Type.Literal('enabled'), model: ModelId });
/** Subagents and workflows, when enabled, say the same two things. */
export const SpawningEnabledParams = Closed({
  type: Type.Literal('enabled'),
  inline_agents: Type.Optional(InlineAgentsParam),
  predefined_agents: Type.Optional(PredefinedAgentsParam),
});
export type SpawningEnabledParams = Static<typeof SpawningEnabledParams>;

export const Multiagent20261001Params = Closed({
  type: Type.Literal('multiagent_20261001'),
  advisor: Type.Optional(unionOrNull([AdvisorEnabledParams, Disabled], 'must be {"type": "enabled", "model"} or {"type": "disabled"}')),
  subagents: Type.Optional(unionOrNull([SpawningEnabledParams, Disabled], ENABLED_OR_DISABLED)),
  workflows: Type.Optional(unionOrNull([SpawningEnabledParams, Disabled], ENABLED_OR_DISABLED)),
});
export type Multiagent20261001Params = Static<typeof Multiagent20261001Params>;

/** What `multiagent` accepts besides null (null: a single-threaded agent). */
export const MultiagentParams = Type.Union([CoordinatorParams, Multiagent20261001Params], {
  description: 'must be null or an object whose type is "coordinator" or "multiagent_20261001"',
});
export type MultiagentParams = Static<typeof MultiagentParams>;
/** Flat, so the variant's own error is reported. */
export const MultiagentParam = Type.Union([CoordinatorParams, Multiagent20261001Params, Type.Null()], {
  description: 'must be null or an object whose type is "coordinator" or "multiagent_20261001"',
});

// ---------------------------------------------------------------------------------------------
// Response forms: every agent named is a versioned reference

export const Advisor = Closed({ model: Type.String(), type: Type.Literal('advisor') });
export const Coordinator = Closed({
  agents: Type.Array(Type.Union([AgentReference, Advisor])),
  type: Type.Literal('coordinator'),
});
export type Coordinator = Static<typeof Coordinator>;

const InlineAgents = Type.Union([Enabled, Disabled]);
const SpawningEnabled = Closed({
  inline_agents: InlineAgents,
  predefined_agents: Type.Array(AgentReference),
  type: Type.Literal('enabled'),
});
export type SpawningEnabled = Static<typeof SpawningEnabled>;
const Spawning = Type.Union([SpawningEnabled, Disabled]);
export type Spawning = Static<typeof Spawning>;

export const Multiagent20261001 = Closed({
  advisor: Type.Union([Closed({ model: Type.String(), type: Type.Literal('enabled') }), Disabled]),
  subagents: Spawning,
  type: Type.Literal('multiagent_20261001'),
  workflows: Spawning,
});
export type Multiagent20261001 = Static<typeof Multiagent20261001>;

export const Multiagent = Type.Union([Coordinator, Multiagent20261001]);
export type Multiagent = Static<typeof Multiagent>;
