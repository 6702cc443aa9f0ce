import type { Logger } from '@shared/log/logger';
import type { Isolation } from './clients/isolation';
import type { BusClient } from '@shared/bus/bus-client';
import type { WorkClaims } from './clients/work-claims';
import type { SandboxWorkerConfig } from './config';
import type { SandboxIdentity } from './domain/sandbox-process';
import type { SandboxWorkerMetrics } from './metrics';

/** What the sandbox worker's handler is given, built once by start-sandbox-worker.ts. */
export interface SandboxWorkerDeps {
  logger: Logger;
  claims: WorkClaims;
  /** The bus, for what a session mounts (its files, from the catalog). */
  bus: Pick<BusClient, 'call'>;
  metrics: SandboxWorkerMetrics;
  /** With SANDBOX_ISOLATION=none, who the sessions' processes run as; undefined: this worker's own user. */
  identity: SandboxIdentity | undefined;
  /** How sessions are isolated, settled at start (clients/isolation.ts). */
  isolation: Isolation;
  config: Pick<
    SandboxWorkerConfig,
    'SANDBOX_GATEWAY_URL' | 'SANDBOX_ROOT' | 'SANDBOX_MAX_LIFETIME_MS' | 'SANDBOX_IDLE_MS' | 'SANDBOX_WORKER_ID'
  >;
}
