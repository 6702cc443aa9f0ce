import { invalidRequest, resourceNotFound } from '@shared/errors/api-error';
import type {
  Multiagent,
  Multiagent20261001Params,
  MultiagentParams,
  PredefinedAgentParams,
  RosterEntryParams,
  Spawning,
  SpawningEnabledParams,
} from '@shared/schema/agent-multiagent';
import type { AgentReference } from '@shared/schema/deployment-run';

/**
 * An agent's multiagent configuration: merged (on update), then resolved into its response form,
 * every agent it names pinned to a concrete version. Pure: the handler loads the agents named
 * (`agentsNamed`) and passes them in as a `RosterLookup`.
 */

/** A saved agent as a roster sees it: the version named (or the latest), and what the rules ask of it. */
export interface RosterAgent {
  id: string;
  version: number;
  archived: boolean;
  /** The version itself has `multiagent` set: it cannot be named (depth limit 1). */
  hasMultiagent: boolean;
}

/** The named agents of the tenant, by id and version (none: the latest); undefined when there is no such agent or version. */
export type RosterLookup = (id: string, version: number | undefined) => RosterAgent | undefined;

/** The agent whose configuration this is, at the version being saved. */
export interface SelfReference {
  id: string;
  version: number;
}

export interface AdvisorModels {
  find(id: string): unknown;
}

type AgentNamed = { id: string; version?: number };

const named = (entry: RosterEntryParams | PredefinedAgentParams): AgentNamed | 'self' | null =>
  typeof entry === 'string'
    ? { id: entry }
    : entry.type === 'agent'
      ? { id: entry.id, ...(entry.version !== undefined ? { version: entry.version } : {}) }
      : entry.type === 'self'
        ? 'self'
        : null;

const spawningLists = (params: Multiagent20261001Params) =>
  [
    ['subagents', params.subagents],
    ['workflows', params.workflows],
  ] as const;

/** The saved agents a configuration names (not itself), for the handler to load. */
export function agentsNamed(params: MultiagentParams | null, selfId: string | null): AgentNamed[] {
  if (!params) return [];
  const entries =
    params.type === 'coordinator'
      ? params.agents
      : spawningLists(params).flatMap(([, member]) => (member?.type === 'enabled' ? (member.predefined_agents ?? []) : []));
  return entries.flatMap((entry) => {
    const agent = named(entry);
    return agent && agent !== 'self' && agent.id !== selfId ? [agent] : [];
  });
}

/**
 * One entry resolved: `self` (and the agent's own id, which a merged configuration carries for
 * it) is the version being saved; any other agent must exist in the tenant (404 otherwise), not be
 * archived, and not have a multiagent configuration of its own.
 */
function resolveAgent(agent: AgentNamed | 'self', path: string, self: SelfReference, lookup: RosterLookup): AgentReference {
  if (agent === 'self' || agent.id === self.id) return { type: 'agent', id: self.id, version: self.version };
  const found = lookup(agent.id, agent.version);
  if (!found) {
    throw resourceNotFound('agent', agent.id, { version: agent.version, field: path });
  }
  if (found.archived) throw invalidRequest(`${path}: agent '${agent.id}' is archived`);
  if (found.hasMultiagent) {
    throw invalidRequest(`${path}: agent '${agent.id}' version ${found.version} has a multiagent configuration itself (one level only)`);
  }
  return { type: 'agent', id: found.id, version: found.version };
}

/** Distinct agents, at most one `self` (which is one agent with its own id). */
function resolveAgentList(
  entries: Array<RosterEntryParams | PredefinedAgentParams>,
  path: string,
  self: SelfReference,
  lookup: RosterLookup,
  models: AdvisorModels,
) {
  const seen = new Set<string>();
  let advisors = 0;
  return entries.map((entry, i) => {
    const at = `${path}.${i}`;
    if (typeof entry === 'object' && entry.type === 'advisor') {
      if (++advisors > 1) throw invalidRequest(`${at}: a roster may name at most one advisor`);
      if (!models.find(entry.model)) throw invalidRequest(`${at}.model: unknown model ${JSON.stringify(entry.model)}`);
      return { model: entry.model, type: 'advisor' as const };
    }
    const reference = resolveAgent(named(entry)!, at, self, lookup);
    if (seen.has(reference.id)) throw invalidRequest(`${at}: agent ${reference.id} is named more than once`);
    seen.add(reference.id);
    return reference;
  });
}

function resolveSpawning(
  member: SpawningEnabledParams | { type: 'disabled' } | null | undefined,
  path: string,
  self: SelfReference,
  lookup: RosterLookup,
  models: AdvisorModels,
): Spawning {
  // Omitted or null: the default, enabled with inline agents and no predefined ones.
  if (!member) return { inline_agents: { type: 'enabled' }, predefined_agents: [], type: 'enabled' };
  if (member.type === 'disabled') return { type: 'disabled' };
  const inline = member.inline_agents ?? { type: 'enabled' };
  const predefined = resolveAgentList(member.predefined_agents ?? [], `${path}.predefined_agents`, self, lookup, models) as AgentReference[];
  if (inline.type === 'disabled' && predefined.length === 0) {
    throw invalidRequest(`${path}.predefined_agents: must name at least one agent when inline_agents is disabled`);
  }
  return { inline_agents: { type: inline.type }, predefined_agents: predefined, type: 'enabled' };
}

export function resolveMultiagent(
  params: MultiagentParams | null,
  self: SelfReference,
  lookup: RosterLookup,
  models: AdvisorModels,
): Multiagent | null {
  if (!params) return null;
  if (params.type === 'coordinator') {
    return { agents: resolveAgentList(params.agents, 'multiagent.agents', self, lookup, models), type: 'coordinator' };
  }
  const advisor = params.advisor ?? { type: 'disabled' as const };
  if (advisor.type === 'enabled' && !models.find(advisor.model)) {
    throw invalidRequest(`multiagent.advisor.model: unknown model ${JSON.stringify(advisor.model)}`);
  }
  return {
    advisor: advisor.type === 'enabled' ? { model: advisor.model, type: 'enabled' } : { type: 'disabled' },
    subagents: resolveSpawning(params.subagents, 'multiagent.subagents', self, lookup, models),
    type: 'multiagent_20261001',
    workflows: resolveSpawning(params.workflows, 'multiagent.workflows', self, lookup, models),
  };
}

/** A stored configuration as params again: its references pinned, so resolving it anew keeps them. */
export function multiagentAsParams(stored: Multiagent): MultiagentParams {
  if (stored.type === 'coordinator') return { type: 'coordinator', agents: stored.agents };
  return { type: 'multiagent_20261001', advisor: stored.advisor, subagents: stored.subagents, workflows: stored.workflows };
}

function mergeSpawning(
  stored: Spawning,
  patch: SpawningEnabledParams | { type: 'disabled' } | null | undefined,
): SpawningEnabledParams | { type: 'disabled' } | null {
  if (patch === undefined) return stored;
  // Null, or another type than the stored one: the patch as it is (its omitted keys take defaults).
  if (patch === null || patch.type !== stored.type || patch.type === 'disabled' || stored.type === 'disabled') return patch;
  return {
    type: 'enabled',
    inline_agents: patch.inline_agents === undefined ? stored.inline_agents : patch.inline_agents,
    // A list that is sent replaces the stored one; null empties it.
    predefined_agents: patch.predefined_agents === undefined ? stored.predefined_agents : patch.predefined_agents,
  };
}

/**
 * What an update's `multiagent` makes of the stored one (the SDK's rule): omitted keeps it, null
 * clears it; a `multiagent_20261001` sent onto a stored `multiagent_20261001` is merged level by
 * level (an omitted key keeps its stored value, null takes the default, an object of another type
 * replaces); anything else replaces it whole.
 */
export function mergeMultiagent(stored: Multiagent | null, patch: MultiagentParams | null | undefined): MultiagentParams | null {
  if (patch === undefined) return stored && multiagentAsParams(stored);
  if (patch === null || patch.type === 'coordinator' || stored?.type !== 'multiagent_20261001') return patch;
  const merged: Multiagent20261001Params = {
    type: 'multiagent_20261001',
    advisor: patch.advisor === undefined ? stored.advisor : patch.advisor,
    subagents: mergeSpawning(stored.subagents, patch.subagents),
    workflows: mergeSpawning(stored.workflows, patch.workflows),
  };
  return merged;
}

/** The configuration with every reference to the agent itself set to `version`. */
function withSelfAt(multiagent: Multiagent | null, selfId: string, version: number): Multiagent | null {
  if (!multiagent) return null;
  const at = <T extends AgentReference | { type: 'advisor'; model: string }>(entry: T): T =>
    entry.type === 'agent' && entry.id === selfId ? { ...entry, version } : entry;
  if (multiagent.type === 'coordinator') return { ...multiagent, agents: multiagent.agents.map(at) };
  const spawning = (s: Spawning): Spawning => (s.type === 'enabled' ? { ...s, predefined_agents: s.predefined_agents.map(at) } : s);
  return { ...multiagent, subagents: spawning(multiagent.subagents), workflows: spawning(multiagent.workflows) };
}

/** `self` (the agent's own id) always names the version that holds the configuration: each new version re-pins it. */
export const pinSelf = (multiagent: Multiagent | null, self: SelfReference) => withSelfAt(multiagent, self.id, self.version);

/** Stored configurations compare equal whatever version their `self` entries name (always the version that holds them). */
export const withoutSelfVersions = (multiagent: Multiagent | null, selfId: string) => withSelfAt(multiagent, selfId, 0);
