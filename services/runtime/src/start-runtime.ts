import { join } from 'node:path';
import { betaAgentToolset20260401 } from '@anthropic-ai/sdk/tools/agent-toolset/node';
import { SessionLogFollower } from '@shared/bus/session-log-follower';
import type { Logger } from '@shared/log/logger';
import { startServiceHost } from '@shared/service-host/service-host';
import type { Clock } from '@shared/time/clock';
import { environmentsClient } from './clients/environments';
import { modelApi } from './clients/model-api';
import { modelPrices } from './clients/model-prices';
import { skillSummaries } from './clients/skills';
import { rubrics } from './clients/rubrics';
import { mcpServers } from './clients/mcp-servers';
import { sessionPreviews } from './clients/session-previews';
import { sessionsClient } from './clients/sessions';
import { vaultCredentials } from './clients/vault-credentials';
import type { RuntimeConfig } from './config';
import { parseAllowedHosts } from '@shared/agents/mcp-hosts';
import { batchedSessionLeases } from './db/session-leases';
import { KnownLogs } from './domain/known-logs';
import type { ToolsetCatalog } from './domain/model-request';
import { createRuntimeMetrics } from './metrics';
import type { RuntimeDeps } from './deps';
import { registerWorkHandlers, startCloudWorkGauge, subscribeSessionNotices } from './service';

export const RUNTIME_MIGRATIONS = join(import.meta.dir, '..', 'migrations');

/**
 * The agent toolset's tools as the SDK's environment worker defines them: the model is offered
 * exactly the names and input schemas a worker runs. Built once; nothing here runs a tool.
 */
function agentToolsetCatalog(): ToolsetCatalog {
  return betaAgentToolset20260401({ workdir: '/nonexistent' } as Parameters<typeof betaAgentToolset20260401>[0]).map((tool) => {
    const t = tool as unknown as { name: string; description?: string; input_schema: ToolsetCatalog[number]['input_schema'] };
    return { name: t.name, description: t.description ?? t.name, input_schema: t.input_schema };
  });
}

export async function startRuntime(config: RuntimeConfig, options: { clock?: Clock; logger?: Logger } = {}) {
  const runtime = await startServiceHost('runtime', config, { database: { migrationsFolder: RUNTIME_MIGRATIONS }, ...options });
  const metrics = createRuntimeMetrics(runtime.telemetry.registry);
  const deps: RuntimeDeps = {
    db: runtime.database.db,
    leases: batchedSessionLeases(runtime.database.db),
    clock: runtime.clock,
    sleep: (ms) => Bun.sleep(ms),
    logger: runtime.logger,
    sessions: sessionsClient(runtime.client),
    knownLogs: new KnownLogs(),
    sessionLog: new SessionLogFollower(runtime.nc, config.BUS_PREFIX, runtime.logger),
    environments: environmentsClient(runtime.client),
    prices: modelPrices(runtime.client),
    skills: skillSummaries(runtime.client),
    model: modelApi(config),
    previews: sessionPreviews(runtime.nc, config.BUS_PREFIX),
    // A file's content crosses the bus through the object store: more time than a plain call.
    rubrics: rubrics(runtime.client, config.BUS_TIMEOUT_MS * 6),
    toolset: agentToolsetCatalog(),
    mcp: mcpServers({
      allowedPrivateHosts: parseAllowedHosts(config.MCP_ALLOW_PRIVATE_HOSTS),
      connectTimeoutMs: config.MCP_CONNECT_TIMEOUT_MS,
      callTimeoutMs: config.MCP_CALL_TIMEOUT_MS,
    }),
    vaults: vaultCredentials(runtime.client),
    metrics,
    config,
  };
  try {
    registerWorkHandlers(runtime.server, deps);
    const notices = await subscribeSessionNotices(deps, {
      nc: runtime.nc,
      prefix: config.BUS_PREFIX,
      durable: config.RUNTIME_CONSUMER_NAME,
      telemetry: runtime.telemetry,
      concurrency: config.RUNTIME_CONCURRENCY,
      ackWaitMs: config.RUNTIME_ACK_WAIT_MS,
    });
    // Turns in flight finish (or their notices go back) before the bus drains.
    runtime.onStop(() => notices.stop());
    // Their leases' last releases are written before the database closes.
    runtime.onStop(() => deps.leases.idle());
    runtime.onStop(async () => deps.sessionLog.stop());
    const gauge = startCloudWorkGauge(deps);
    runtime.onStop(async () => gauge.stop());
  } catch (err) {
    await runtime.stop();
    throw err;
  }
  if (!deps.model.configured) runtime.logger.warn('MODEL_API_KEY is not set: sessions that need the model stop with a session.error');
  return runtime;
}
