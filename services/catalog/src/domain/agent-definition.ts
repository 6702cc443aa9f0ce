import { canonicalJson } from '@shared/json/canonical-json';
import { conflict, invalidRequest } from '@shared/errors/api-error';
import type {
  AgentCreateBody,
  AgentModelConfig,
  AgentModelParam,
  AgentUpdateBody,
  ExecutionIdentity,
} from '@shared/schema/agent';
import type { Model } from '@shared/schema/model';
import { applyMetadataPatch } from '@shared/metadata/apply-metadata-patch';
import type { AgentVersionRow } from '../db/schema';
import { refuseArchived } from './owned-row';

/** What one agent version holds; everything else (id, tenant, timestamps) belongs to the agent. */
export interface AgentDefinition {
  name: string;
  description: string | null;
  model: AgentModelConfig;
  system: string | null;
  metadata: Record<string, string>;
  executionIdentity: ExecutionIdentity;
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
});

const DEFAULT_IDENTITY: ExecutionIdentity = { type: 'service_account' };

/** The model must be in the catalog; the response always shows the object form. */
export function resolveModel(param: AgentModelParam, models: ModelLookup): AgentModelConfig {
  const config = typeof param === 'string' ? { id: param } : param;
  const field = typeof param === 'string' ? 'model' : 'model.id';
  if (!models.find(config.id)) throw invalidRequest(`${field}: unknown model ${JSON.stringify(config.id)}`);
  const out: AgentModelConfig = { id: config.id };
  if (typeof param === 'object') {
    if (param.effort != null) out.effort = typeof param.effort === 'string' ? { type: param.effort } : param.effort;
    if (param.inference_geo != null) out.inference_geo = param.inference_geo;
    if (param.speed != null) out.speed = param.speed;
  }
  return out;
}

export function newAgentDefinition(body: AgentCreateBody, models: ModelLookup): AgentDefinition {
  return {
    name: body.name,
    description: body.description ?? null,
    model: resolveModel(body.model, models),
    system: body.system ?? null,
    metadata: body.metadata ?? {},
    executionIdentity: body.execution_identity ?? DEFAULT_IDENTITY,
  };
}

/** Omitted fields are kept; empty strings and null clear description and system (SDK semantics). */
export function applyAgentUpdate(current: AgentDefinition, patch: AgentUpdateBody, models: ModelLookup): AgentDefinition {
  const cleared = (value: string | null | undefined, previous: string | null) =>
    value === undefined ? previous : value === null || value === '' ? null : value;
  return {
    name: patch.name ?? current.name,
    description: cleared(patch.description, current.description),
    model: patch.model === undefined ? current.model : resolveModel(patch.model, models),
    system: cleared(patch.system, current.system),
    metadata: applyMetadataPatch(current.metadata, patch.metadata),
    executionIdentity:
      patch.execution_identity === undefined ? current.executionIdentity : (patch.execution_identity ?? DEFAULT_IDENTITY),
  };
}

/** A version is only added when something changed: "increments when the agent is modified". */
export function sameDefinition(a: AgentDefinition, b: AgentDefinition): boolean {
  return canonicalJson(a) === canonicalJson(b);
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
