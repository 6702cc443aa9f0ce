import type { SessionLogFollower } from '@shared/bus/session-log-follower';
import type { Database } from '@shared/db/connect';
import type { Logger } from '@shared/log/logger';
import type { Clock } from '@shared/time/clock';
import type { EnvironmentsClient } from './clients/environments';
import type { ModelApi, Sleep } from './clients/model-api';
import type { ModelPrices } from './clients/model-prices';
import type { SkillSummaries } from './clients/skills';
import type { Rubrics } from './clients/rubrics';
import type { McpServers } from './clients/mcp-servers';
import type { SessionPreviews } from './clients/session-previews';
import type { SessionsClient } from './clients/sessions';
import type { VaultCredentials } from './clients/vault-credentials';
import type { RuntimeConfig } from './config';
import type { SessionLeases } from './db/session-leases';
import type { ToolsetCatalog } from './domain/model-request';
import type { KnownLogs } from './domain/known-logs';
import type { RuntimeMetrics } from './metrics';

/** What the runtime's handlers are given, built once by start-runtime.ts. */
export interface RuntimeDeps {
  db: Database;
  /** Drives' session leases, taken and given back in batches (db/session-leases.ts). */
  leases: SessionLeases;
  clock: Clock;
  /** Waits between a model request's retries (clients/model-api.ts); injected so tests can drive the wait. */
  sleep: Sleep;
  logger: Logger;
  sessions: SessionsClient;
  /** The logs this replica's drives read, kept for their next drives (domain/known-logs.ts). */
  knownLogs: KnownLogs;
  /** This replica's follower of the log notices: a model request in flight hears of an interrupt. */
  sessionLog: SessionLogFollower;
  /** An environment's type, which decides the pool a session's work item is queued in. */
  environments: EnvironmentsClient;
  /** A model's list price and context window, from the catalog. */
  prices: ModelPrices;
  /** The names and descriptions of a session's skills, for its system prompt. */
  skills: SkillSummaries;
  model: ModelApi;
  /** Where the previews of answers being streamed go: the gateways' event streams that asked for them. */
  previews: SessionPreviews;
  /** Outcome rubrics as text (a file rubric is read from the catalog). */
  rubrics: Rubrics;
  /** The agent toolset's tools as the SDK's environment worker runs them. */
  toolset: ToolsetCatalog;
  /** The agent's MCP servers, which the runtime lists and calls itself (docs/decisions.md, issue 28). */
  mcp: McpServers;
  /** A session's vault credentials: its MCP servers' bearer tokens, a cloud item's environment variables. */
  vaults: VaultCredentials;
  metrics: RuntimeMetrics;
  config: Pick<
    RuntimeConfig,
    | 'MODEL_MAX_TOKENS'
    | 'MODEL_MAX_RETRIES'
    | 'MODEL_RETRY_BASE_MS'
    | 'RUNTIME_COMPACTION_THRESHOLD'
    | 'RUNTIME_LEASE_MS'
    | 'RUNTIME_WORKER_ID'
    | 'WORK_LEASE_TTL_SECONDS'
    | 'SESSIONS_TOKEN_TTL_SECONDS'
    | 'sessionsTokenKey'
  >;
}
