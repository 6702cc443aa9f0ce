import { resolveMcpServers, resolveTools } from '@shared/agents/agent-tools';
import { DEFAULT_MCP_URL_RULES, type McpUrlRules } from '@shared/agents/mcp-server-url';
import { ApiError, invalidRequest } from '@shared/errors/api-error';
import { canonicalJson } from '@shared/json/canonical-json';
import { applyMetadataPatch } from '@shared/metadata/apply-metadata-patch';
import type { Budget } from '@shared/schema/deployment';
import type { SessionAgent, SessionUpdateRequest } from '@shared/schema/session';
import type { NewSessionEventBody } from '@shared/schema/session-event';
import type { SessionRow } from '../db/schema';
import { archivedRefusal } from './lifecycle';
import { referenceRefusal, type ReferenceProblem, type ReferenceSet } from './references';

/**
 * The budget rules of `POST /v1/sessions/{id}`, by the reason names the SDK documents
 * (SessionUpdateParams.budget): each refusal's message starts with `budget: <reason>:`.
 */
export const BUDGET_REASONS = {
  createOnly: 'budget_create_only',
  notRaised: 'budget_not_raised',
  notBudgetable: 'model_not_budgetable',
} as const;

const budgetRefusal = (reason: string, why: string) => invalidRequest(`budget: ${reason}: ${why}`);

/**
 * List cost a session has consumed, in USD minor units. Nothing runs a session in this product
 * yet, so nothing is consumed; the runtime (next issue) will track it, and this is where the
 * `budget_not_raised` rule reads it.
 */
export const consumedListCost = (_row: SessionRow): bigint => 0n;

/** Every change of a session is refused once it is archived (the deployment's rule and words). */
export const sessionArchivedRefusal = (id: string, what: string) => archivedRefusal(id, what, 'session');

/** The columns a change of a session may write (db/sessions.ts updateSession, under the session's lock). */
export type SessionChange = Partial<Pick<SessionRow, 'agent' | 'resources' | 'budget' | 'metadata' | 'title' | 'archivedAt' | 'dataKeyId' | 'dataKeyWrapped'>> & {
  updatedAt: Date;
};

export interface SessionUpdatePlan {
  change: SessionChange;
  /** The session's agent for its model's list price (`model_not_budgetable`), when a budget is set. */
  references: ReferenceSet | null;
}

/**
 * The row's change per the SDK's SessionUpdateParams: omitted preserves; `title` null clears;
 * `metadata` is a patch; `budget` replaces or removes under the SDK's rules; `agent` replaces
 * `tools` and/or `mcp_servers` of the session's agent snapshot (never the agent itself), not
 * while the session is running; `vault_ids` is reserved by the SDK ("requests setting this
 * field are rejected").
 */
export function planSessionUpdate(
  row: SessionRow,
  agent: SessionAgent,
  update: SessionUpdateRequest,
  now: Date,
  mcpUrls: McpUrlRules = DEFAULT_MCP_URL_RULES,
): SessionUpdatePlan {
  if (row.archivedAt) throw sessionArchivedRefusal(row.id, 'updated');
  if (update.vault_ids !== undefined) {
    throw invalidRequest("vault_ids: cannot be changed on a session (the SDK reserves it; the session keeps the vaults it was created with)");
  }
  const change: SessionChange = { updatedAt: now };
  if (update.title !== undefined) change.title = update.title;
  if (update.metadata !== undefined) change.metadata = applyMetadataPatch(row.metadata, update.metadata);
  let references: ReferenceSet | null = null;
  if (update.budget !== undefined) {
    change.budget = checkBudgetChange(row, update.budget);
    if (change.budget) references = modelCheckOf(row);
  }
  if (update.agent !== undefined && (update.agent.tools !== undefined || update.agent.mcp_servers !== undefined)) {
    if (row.status === 'running') throw invalidRequest('agent: cannot be updated while the session is running; interrupt it first');
    change.agent = updatedAgent(agent, update.agent, mcpUrls);
  }
  return { change, references };
}

/**
 * The session's agent with `tools` and/or `mcp_servers` replaced whole (SDK
 * BetaManagedAgentsSessionAgentUpdate), resolved by the catalog's one rule (shared/agents/
 * agent-tools.ts: defaults filled in, an MCP toolset must name a server of the list); kept tools
 * must still find their servers. The agent resource is not touched: only this session's copy.
 */
function updatedAgent(agent: SessionAgent, update: NonNullable<SessionUpdateRequest['agent']>, mcpUrls: McpUrlRules): SessionAgent {
  const servers = update.mcp_servers !== undefined ? underAgent(() => resolveMcpServers(update.mcp_servers ?? [], mcpUrls)) : agent.mcp_servers;
  const tools = update.tools !== undefined ? underAgent(() => resolveTools(update.tools ?? [], servers)) : agent.tools;
  const orphan = tools.find((t) => t.type === 'mcp_toolset' && !servers.some((m) => m.name === t.mcp_server_name));
  if (orphan?.type === 'mcp_toolset') {
    throw invalidRequest(`agent.mcp_servers: the mcp_toolset of server '${orphan.mcp_server_name}' still uses it; replace agent.tools too`);
  }
  return { ...agent, tools, mcp_servers: servers };
}

/** The catalog's rules name the agent's own fields (`tools.0...`); on a session they are under `agent`. */
function underAgent<T>(resolve: () => T): T {
  try {
    return resolve();
  } catch (err) {
    if (err instanceof ApiError) throw new ApiError(err.type, `agent.${err.message}`, { status: err.status });
    throw err;
  }
}

/**
 * The `session.updated` event an update records (SDK BetaManagedAgentsSessionUpdatedEvent), or
 * null when it changed nothing: only the fields that changed; `agent` the whole snapshot after;
 * `metadata` the whole bag, left out when the update emptied it ("absent when ... cleared to
 * empty"), though the event is still due.
 */
export function sessionUpdatedEvent(before: SessionRow, agentBefore: SessionAgent, after: SessionRow): NewSessionEventBody | null {
  const event: Extract<NewSessionEventBody, { type: 'session.updated' }> = { type: 'session.updated' };
  let changed = false;
  if (after.title !== before.title) {
    event.title = after.title;
    changed = true;
  }
  if (canonicalJson(after.metadata) !== canonicalJson(before.metadata)) {
    if (Object.keys(after.metadata).length > 0) event.metadata = after.metadata;
    changed = true;
  }
  if (canonicalJson(after.budget) !== canonicalJson(before.budget)) {
    event.budget = after.budget;
    changed = true;
  }
  if (after.agent && canonicalJson(after.agent) !== canonicalJson(agentBefore)) {
    event.agent = after.agent;
    changed = true;
  }
  return changed ? event : null;
}

/**
 * The SDK's budget rules: allowed in any status but `terminated`; an object replaces the budget
 * of a session created with one, never adds one (`budget_create_only`: a session created without
 * one, or whose budget was removed, stays uncapped); the new ceiling must stay above what the
 * session has consumed (`budget_not_raised`); null removes it. The model rule
 * (`model_not_budgetable`) needs the catalog: see modelCheckOf and budgetModelRefusal.
 */
export function checkBudgetChange(row: SessionRow, budget: Budget | null): Budget | null {
  if (row.status === 'terminated') throw invalidRequest("budget: cannot be changed on a terminated session");
  if (budget === null) return null;
  if (row.budget === null) {
    throw budgetRefusal(BUDGET_REASONS.createOnly, 'a budget can only be set when the session is created (and not re-added once removed)');
  }
  const consumed = consumedListCost(row);
  if (BigInt(budget.max_list_cost.amount) <= consumed) {
    throw budgetRefusal(BUDGET_REASONS.notRaised, `max_list_cost must stay above the list cost the session has consumed (${consumed} cents)`);
  }
  return budget;
}

/** Asks the catalog about the session's own agent version for its model only (its list price). */
const modelCheckOf = (row: SessionRow): ReferenceSet => ({
  agent: { id: row.agentId, version: row.agentVersion, check: false },
  environment: null,
  vaults: [],
  files: [],
  memoryStores: [],
  modelRules: { systemMessageAt: undefined, hasBudget: true },
});

/**
 * A reference problem as a session's create or update answers it: the deployment's answers
 * (referenceRefusal), except the budget's model rule, which carries the SDK's reason name.
 */
export function sessionReferenceRefusal(problem: ReferenceProblem) {
  if (problem.kind !== 'model' || problem.rule !== 'budget') return referenceRefusal(problem);
  const model = problem.agent.model ? `model '${problem.agent.model.id}'` : "the agent's model";
  return budgetRefusal(BUDGET_REASONS.notBudgetable, `${model} of agent '${problem.agent.id}' has no public list price`);
}
