import { newRowColumns } from '@shared/db/columns';
import { invalidRequest } from '@shared/errors/api-error';
import type { Budget, InitialEvent, SessionResourceConfig } from '@shared/schema/deployment';
import type { SessionAgent, SessionCreated, SessionCreateRequest } from '@shared/schema/session';
import type { Tenant } from '@shared/schema/tenant';
import type { DeploymentRow, DeploymentRunRow, SessionRow } from '../db/schema';
import { checkSystemMessagePlacement, eventFileReferences, resolveInitialEvents } from './initial-events';
import type { MemoryStoreSnapshots, ReferenceSet } from './references';
import { outcomeEvaluationsOf } from './outcome-evaluations';
import { resolveResources, type RepositoryToken, type RepositoryUrlRules } from './resources';
import { attachMemoryStores, derivedResourceId } from './session-resources';
import { tenantOfRow } from './row-tenant';

/**
 * The one way a session comes to be, whoever asks: `POST /v1/sessions` (planSessionCreate, then
 * newSessionRow) and a deployment's fire (sessionFromDeployment, then newSessionRow). Both then
 * write it with db/sessions.ts recordNewSessions, in the transaction of their choice (the fire's
 * is the one that records its run).
 */
export interface SessionSource {
  tenant: Pick<Tenant, 'organization_id' | 'workspace_id'>;
  deploymentId: string | null;
  /** The agent version's definition, from the catalog (clients/agent-versions.ts). */
  agent: SessionAgent;
  environmentId: string;
  vaultIds: string[];
  resources: SessionResourceConfig[];
  budget: Budget | null;
  initialEvents: InitialEvent[];
  metadata: Record<string, string>;
  title: string | null;
  /** The session's own data key when it seals tokens (API sessions with repositories). */
  dataKey: { keyId: string; wrapped: string } | null;
}

/** Every session starts `idle` (SDK: "Sessions start in idle") and unarchived. */
export function newSessionRow(id: string, source: SessionSource, now: Date): SessionRow {
  return {
    ...newRowColumns(id, source.tenant, now),
    deploymentId: source.deploymentId,
    agentId: source.agent.id,
    agentVersion: source.agent.version,
    agent: source.agent,
    environmentId: source.environmentId,
    vaultIds: source.vaultIds,
    resources: source.resources,
    budget: source.budget,
    initialEvents: source.initialEvents,
    status: 'idle',
    metadata: source.metadata,
    title: source.title,
    outcomeEvaluations: outcomeEvaluationsOf(id, source.initialEvents, 1),
    usage: null,
    // Its log starts as its initial events, sequences 1 to n (db/sessions.ts recordNewSessions writes both).
    lastSequence: source.initialEvents.length,
    revision: 0,
    dataKeyId: source.dataKey?.keyId ?? null,
    dataKeyWrapped: source.dataKey?.wrapped ?? null,
  };
}

/**
 * A fire's session is the deployment as it stands, budget copied: later changes never reach it.
 * Its repository tokens stay sealed with the deployment (deployment_secrets).
 */
export function sessionFromDeployment(row: DeploymentRow, agent: SessionAgent, memoryStores: MemoryStoreSnapshots = new Map()): SessionSource {
  return {
    tenant: tenantOfRow(row),
    deploymentId: row.id,
    agent,
    environmentId: row.environmentId,
    vaultIds: row.vaultIds,
    resources: attachMemoryStores(row.resources, memoryStores),
    budget: row.budget,
    initialEvents: row.initialEvents,
    metadata: row.metadata,
    title: null,
    dataKey: null,
  };
}

export interface SessionCreatePlan {
  agent: { id: string; version: number | null };
  references: ReferenceSet;
  resources: SessionResourceConfig[];
  initialEvents: InitialEvent[];
  /** Repository tokens by position in `resources`; sealed bound to that resource's id (sealSessionTokens). */
  tokens: RepositoryToken[];
}

/**
 * The checks of `POST /v1/sessions` that need nothing but the request, with the deployment's
 * rules (events, resources), each throwing the 400 that names its field; and what to ask the
 * catalog and the vaults service about: the same ReferenceSet a deployment's create builds.
 */
export function planSessionCreate(request: SessionCreateRequest, repositoryUrls?: RepositoryUrlRules): SessionCreatePlan {
  const agentParam = request.agent;
  if (typeof agentParam !== 'string' && agentParam.type === 'agent_with_overrides') {
    throw invalidRequest(
      "agent: type 'agent_with_overrides' is not supported; pass the agent's id or {\"type\": \"agent\", \"id\", \"version\"} (the session runs that agent version as it is)",
    );
  }
  const agent =
    typeof agentParam === 'string'
      ? { id: agentParam, version: null }
      : { id: (agentParam as { id: string }).id, version: (agentParam as { version?: number }).version ?? null };
  const events = request.initial_events ?? [];
  const systemMessageAt = checkSystemMessagePlacement(events);
  const resources = resolveResources(request.resources ?? [], repositoryUrls);
  return {
    agent,
    references: {
      agent: { ...agent, check: true },
      environment: { id: request.environment_id, path: 'environment_id' },
      vaults: (request.vault_ids ?? []).map((id, i) => ({ id, path: `vault_ids.${i}` })),
      files: [...resources.files, ...eventFileReferences(events)],
      memoryStores: resources.memoryStores,
      modelRules: { systemMessageAt, hasBudget: Boolean(request.budget) },
    },
    resources: resources.configs,
    initialEvents: resolveInitialEvents(events),
    tokens: resources.tokens,
  };
}

/** The source of an API session once its references are resolved. */
export function sessionFromRequest(
  tenant: SessionSource['tenant'],
  request: SessionCreateRequest,
  plan: SessionCreatePlan,
  agent: SessionAgent,
  dataKey: SessionSource['dataKey'],
): SessionSource {
  return {
    tenant,
    deploymentId: null,
    agent,
    environmentId: request.environment_id,
    vaultIds: request.vault_ids ?? [],
    resources: plan.resources,
    budget: request.budget ?? null,
    initialEvents: plan.initialEvents,
    metadata: request.metadata ?? {},
    title: request.title ?? null,
    dataKey,
  };
}

/** A token's resource id: the id resource `index` of a new session has (see derivedResourceId). */
export const tokenResourceIds = (sessionId: string, tokens: RepositoryToken[]) =>
  tokens.map((t) => ({ resourceId: derivedResourceId(sessionId, t.index), token: t.token }));

/** `sessions.created`: ids and references only, never content (see SessionCreated); `run` is the fire's, null for an API session. */
export function sessionCreatedEvent(session: SessionRow, run: DeploymentRunRow | null): SessionCreated {
  return {
    session_id: session.id,
    deployment_id: session.deploymentId,
    deployment_run_id: run?.id ?? null,
    organization_id: session.organizationId,
    workspace_id: session.workspaceId,
    agent: { type: 'agent', id: session.agentId, version: session.agentVersion },
    environment_id: session.environmentId,
    vault_ids: session.vaultIds,
    initial_events: session.initialEvents.length,
  };
}
