import { ApiError, invalidRequest, notFound } from '@shared/errors/api-error';
import type { RunError } from '@shared/schema/deployment-run';
import type { Model } from '@shared/schema/model';
import type { CheckVaultsReply, ReferenceState, ResolveReferencesReply } from '@shared/schema/references';
import type { DeploymentRow } from '../db/schema';
import { eventFileReferences } from './initial-events';

/** A referenced id with the field path of its use, so a problem points at the request. */
export interface PlacedReference {
  id: string;
  path: string;
}

/** The rules of the agent's model to check: where a system.message is, and whether a budget is set. */
export interface ModelRules {
  systemMessageAt: number | undefined;
  hasBudget: boolean;
  /** The list `systemMessageAt` indexes, for errors: `initial_events` unless said (a session's sent `events`). */
  eventsField?: string;
}

/**
 * Everything a deployment refers to that other services own, in the order it is checked:
 * agent, environment, vaults, files (of resources, then of events), memory stores, then the
 * rules of the agent's model. Creation, update and fire each build one and read the verdict.
 */
export interface ReferenceSet {
  /** `check: false` on an update that keeps its agent: only its model is asked about. */
  agent: { id: string; version: number | null; check: boolean };
  /** Null on an update that keeps its environment. */
  environment: PlacedReference | null;
  vaults: PlacedReference[];
  files: PlacedReference[];
  memoryStores: PlacedReference[];
  /** Null when nothing the model rules depend on changed (an update of other fields). */
  modelRules: ModelRules | null;
}

/** What the catalog and the vaults service answered about a ReferenceSet. */
export interface ReferenceReplies {
  catalog: ResolveReferencesReply;
  vaults: CheckVaultsReply;
}

export interface ResolvedAgent {
  id: string;
  version: number;
  model: Model | null;
}

export type ReferenceKind = 'environment' | 'vault' | 'file' | 'memory_store';

/** The first thing wrong with a ReferenceSet. */
export type ReferenceProblem =
  | { kind: 'agent'; state: 'not_found' | 'archived'; id: string; version: number | null; path: 'agent' }
  | { kind: ReferenceKind; state: 'not_found' | 'archived'; id: string; path: string }
  | { kind: 'model'; rule: 'system_message'; agent: ResolvedAgent; path: string }
  | { kind: 'model'; rule: 'budget'; agent: ResolvedAgent; path: 'budget' };

/** What a session snapshots of each memory store it mounts, by id (from the catalog's answer). */
export type MemoryStoreSnapshots = ReadonlyMap<string, { name: string; description: string }>;

export type ReferenceVerdict = { ok: true; agent: ResolvedAgent; memoryStores: MemoryStoreSnapshots } | { ok: false; problem: ReferenceProblem };

/** A set that names nothing to check asks no other service (an update of name, metadata, schedule). */
export function asksOwners(refs: ReferenceSet): boolean {
  return (
    refs.agent.check ||
    refs.environment !== null ||
    refs.modelRules !== null ||
    refs.vaults.length + refs.files.length + refs.memoryStores.length > 0
  );
}

/** The ids a ReferenceSet asks about, each once: the same id used twice is checked once. */
export function referenceIds(refs: ReferenceSet) {
  const unique = (list: PlacedReference[]) => [...new Set(list.map((r) => r.id))];
  return {
    agent: { id: refs.agent.id, version: refs.agent.version },
    environment_id: refs.environment?.id ?? null,
    vault_ids: unique(refs.vaults),
    file_ids: unique(refs.files),
    memory_store_ids: unique(refs.memoryStores),
  };
}

/** Everything a stored deployment uses, with the field paths it has in a request: what a fire re-checks. */
export function rowReferences(row: DeploymentRow): ReferenceSet {
  const files: PlacedReference[] = [];
  const memoryStores: PlacedReference[] = [];
  row.resources.forEach((r, i) => {
    if (r.type === 'file') files.push({ id: r.file_id, path: `resources.${i}.file_id` });
    if (r.type === 'memory_store') memoryStores.push({ id: r.memory_store_id, path: `resources.${i}.memory_store_id` });
  });
  return {
    agent: { id: row.agentId, version: row.agentVersion, check: true },
    environment: { id: row.environmentId, path: 'environment_id' },
    vaults: row.vaultIds.map((id, i) => ({ id, path: `vault_ids.${i}` })),
    files: [...files, ...eventFileReferences(row.initialEvents)],
    memoryStores,
    modelRules: {
      systemMessageAt: indexOfSystemMessage(row.initialEvents),
      hasBudget: row.budget !== null,
    },
  };
}

const indexOfSystemMessage = (events: Array<{ type: string }>): number | undefined => {
  const at = events.findIndex((e) => e.type === 'system.message');
  return at === -1 ? undefined : at;
};

/**
 * The one reference classifier: the first problem in the order of ReferenceSet, or the resolved
 * agent. A reply that omits an id it was asked about counts as not found (fail closed), and so
 * does an agent without a version. An agent whose model the catalog does not know is treated as
 * supporting neither model rule, so both fail closed too.
 */
export function classifyReferences(refs: ReferenceSet, replies: ReferenceReplies): ReferenceVerdict {
  const { catalog } = replies;
  const agent = catalog.agent;
  let resolved: ResolvedAgent;
  if (!refs.agent.check) {
    // Kept as it is: its state is the fire path's business; only its model matters here.
    resolved = { id: refs.agent.id, version: agent?.version ?? refs.agent.version ?? 0, model: agent?.model ?? null };
  } else {
    const { id, version } = refs.agent;
    if (!agent || agent.state === 'not_found' || agent.version === null) {
      return { ok: false, problem: { kind: 'agent', state: 'not_found', id, version, path: 'agent' } };
    }
    if (agent.state === 'archived') return { ok: false, problem: { kind: 'agent', state: 'archived', id, version, path: 'agent' } };
    resolved = { id, version: agent.version, model: agent.model };
  }

  if (refs.environment) {
    const state = catalog.environment?.state ?? 'not_found';
    if (state !== 'ok') return { ok: false, problem: { kind: 'environment', state, ...refs.environment } };
  }
  const lists: Array<[ReferenceKind, PlacedReference[], Array<{ id: string; state: ReferenceState }>]> = [
    ['vault', refs.vaults, replies.vaults.vaults],
    ['file', refs.files, catalog.files],
    ['memory_store', refs.memoryStores, catalog.memory_stores],
  ];
  for (const [kind, placed, answered] of lists) {
    const states = new Map(answered.map((a) => [a.id, a.state]));
    for (const ref of placed) {
      const state = states.get(ref.id) ?? 'not_found';
      if (state !== 'ok') return { ok: false, problem: { kind, state, ...ref } };
    }
  }

  const rules = refs.modelRules;
  if (rules?.systemMessageAt !== undefined && !resolved.model?.supports_system_messages) {
    return { ok: false, problem: { kind: 'model', rule: 'system_message', agent: resolved, path: `${rules.eventsField ?? 'initial_events'}.${rules.systemMessageAt}` } };
  }
  if (rules?.hasBudget && !resolved.model?.list_price) {
    return { ok: false, problem: { kind: 'model', rule: 'budget', agent: resolved, path: 'budget' } };
  }
  const memoryStores = new Map(catalog.memory_stores.flatMap((m) => (m.name === undefined ? [] : [[m.id, { name: m.name, description: m.description ?? '' }] as const])));
  return { ok: true, agent: resolved, memoryStores };
}

const KIND_NAMES: Record<ReferenceKind, string> = {
  environment: 'environment',
  vault: 'vault',
  file: 'file',
  memory_store: 'memory store',
};

const modelName = (agent: ResolvedAgent) => (agent.model ? `model '${agent.model.id}'` : "the agent's model");

/**
 * A problem as creation and update answer it: 404 for a missing reference, 400 for an archived
 * one or a model rule not met, each naming the request field.
 */
export function referenceRefusal(problem: ReferenceProblem): ApiError {
  switch (problem.kind) {
    case 'agent': {
      if (problem.state === 'archived') return invalidRequest(`agent: agent '${problem.id}' is archived`);
      const name = problem.version === null ? `agent '${problem.id}'` : `agent '${problem.id}' version ${problem.version}`;
      return notFound(`agent: ${name} not found`);
    }
    case 'model':
      return problem.rule === 'system_message'
        ? invalidRequest(`${problem.path}: ${modelName(problem.agent)} of agent '${problem.agent.id}' does not accept system.message events`)
        : invalidRequest(`budget: ${modelName(problem.agent)} of agent '${problem.agent.id}' has no public list price, so a budget cannot be set`);
    default: {
      const what = `${problem.path}: ${KIND_NAMES[problem.kind]} '${problem.id}'`;
      return problem.state === 'archived' ? invalidRequest(`${what} is archived`) : notFound(`${what} not found`);
    }
  }
}

/**
 * A problem as a fire records it, the interface's run error of each kind:
 * - agent archived: agent_archived_error; agent (version) gone: session_resource_not_found_error;
 * - environment archived / gone: environment_archived_error / environment_not_found_error;
 * - vault gone / archived: vault_not_found_error / vault_archived_error;
 * - a file unusable (a file resource, a file rubric, an image or document block's file source):
 *   file_not_found_error;
 * - memory store archived: memory_store_archived_error; gone: session_resource_not_found_error;
 * - a rule of the agent's model no longer met: unknown_error. The agent version is pinned, so
 *   only a change to the shipped model catalog can cause it; it pauses, as it will not mend itself.
 */
export function referenceRunError(problem: ReferenceProblem): RunError {
  const gone = problem.kind !== 'model' && problem.state === 'not_found';
  switch (problem.kind) {
    case 'agent':
      return gone
        ? { type: 'session_resource_not_found_error', message: `agent '${problem.id}' version ${problem.version} no longer exists` }
        : { type: 'agent_archived_error', message: `agent '${problem.id}' is archived` };
    case 'environment':
      return gone
        ? { type: 'environment_not_found_error', message: `environment '${problem.id}' no longer exists` }
        : { type: 'environment_archived_error', message: `environment '${problem.id}' is archived` };
    case 'vault':
      return gone
        ? { type: 'vault_not_found_error', message: `vault '${problem.id}' no longer exists` }
        : { type: 'vault_archived_error', message: `vault '${problem.id}' is archived` };
    case 'file':
      return { type: 'file_not_found_error', message: `file '${problem.id}' no longer exists` };
    case 'memory_store':
      return gone
        ? { type: 'session_resource_not_found_error', message: `memory store '${problem.id}' no longer exists` }
        : { type: 'memory_store_archived_error', message: `memory store '${problem.id}' is archived` };
    case 'model':
      return problem.rule === 'budget'
        ? { type: 'unknown_error', message: `${modelName(problem.agent)} has no public list price, so the deployment's budget cannot be applied` }
        : { type: 'unknown_error', message: `${modelName(problem.agent)} does not accept the deployment's system.message event` };
  }
}
