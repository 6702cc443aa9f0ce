import { invalidRequest, notFound } from '@shared/errors/api-error';
import type { Model } from '@shared/schema/model';
import type { CheckVaultsReply, ReferenceState, ResolveReferencesReply } from '@shared/schema/references';

/** A referenced id with the field path of its first use, so errors point at the request. */
export interface PlacedReference {
  id: string;
  path: string;
}

export interface ResolvedAgent {
  id: string;
  version: number;
  model: Model | null;
}

/** Same id used twice is checked once; the first use names it in errors. */
export function uniqueIds(refs: PlacedReference[]): string[] {
  return [...new Set(refs.map((r) => r.id))];
}

function rejectUnusable(kind: string, ref: PlacedReference, state: ReferenceState | undefined): void {
  // A reply that omits an id we asked about is treated as "not found": fail closed.
  if (state === undefined || state === 'not_found') throw notFound(`${ref.path}: ${kind} '${ref.id}' not found`);
  if (state === 'archived') throw invalidRequest(`${ref.path}: ${kind} '${ref.id}' is archived`);
}

/**
 * Turns the catalog's and the vaults service's verdicts into the first error in request order
 * (agent, environment, vaults, files of resources then of events, memory stores), or the resolved
 * agent: 404 for a missing reference, 400 naming it for an archived one.
 */
export function checkReferences(
  request: {
    agent: { id: string; version: number | null };
    /** False on an update that keeps its agent: it is only asked about for its model. */
    checkAgent?: boolean;
    /** Null on an update that keeps its environment. */
    environmentId: string | null;
    vaults: PlacedReference[];
    files: PlacedReference[];
    memoryStores: PlacedReference[];
  },
  catalog: ResolveReferencesReply,
  vaults: CheckVaultsReply,
): ResolvedAgent {
  const agent = catalog.agent;
  const agentName = request.agent.version === null ? `agent '${request.agent.id}'` : `agent '${request.agent.id}' version ${request.agent.version}`;
  let resolved: ResolvedAgent;
  if (request.checkAgent === false) {
    // Kept as it is: its state is the fire path's business; only its model matters here.
    resolved = { id: request.agent.id, version: agent?.version ?? request.agent.version ?? 0, model: agent?.model ?? null };
  } else {
    if (!agent || agent.state === 'not_found' || agent.version === null) throw notFound(`agent: ${agentName} not found`);
    if (agent.state === 'archived') throw invalidRequest(`agent: agent '${request.agent.id}' is archived`);
    resolved = { id: request.agent.id, version: agent.version, model: agent.model };
  }

  if (request.environmentId !== null) {
    rejectUnusable('environment', { id: request.environmentId, path: 'environment_id' }, catalog.environment?.state);
  }
  const vaultStates = new Map(vaults.vaults.map((v) => [v.id, v.state]));
  for (const ref of request.vaults) rejectUnusable('vault', ref, vaultStates.get(ref.id));
  const fileStates = new Map(catalog.files.map((f) => [f.id, f.state]));
  for (const ref of request.files) rejectUnusable('file', ref, fileStates.get(ref.id));
  const storeStates = new Map(catalog.memory_stores.map((m) => [m.id, m.state]));
  for (const ref of request.memoryStores) rejectUnusable('memory store', ref, storeStates.get(ref.id));

  return resolved;
}

/**
 * Rules that depend on the agent's model. An agent whose model is unknown to the catalog is
 * treated as supporting neither, so both rules fail closed.
 */
export function checkModelRules(
  agent: ResolvedAgent,
  request: { systemMessageAt: number | undefined; hasBudget: boolean },
): void {
  const modelName = agent.model ? `model '${agent.model.id}'` : 'the agent\'s model';
  if (request.systemMessageAt !== undefined && !agent.model?.supports_system_messages) {
    throw invalidRequest(
      `initial_events.${request.systemMessageAt}: ${modelName} of agent '${agent.id}' does not accept system.message events`,
    );
  }
  if (request.hasBudget && !agent.model?.list_price) {
    throw invalidRequest(`budget: ${modelName} of agent '${agent.id}' has no public list price, so a budget cannot be set`);
  }
}
