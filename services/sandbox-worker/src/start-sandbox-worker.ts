import { chmod, mkdir } from 'node:fs/promises';
import type { Logger } from '@shared/log/logger';
import { startServiceHost } from '@shared/service-host/service-host';
import { prepareIsolation } from './clients/isolation';
import { workClaims } from './clients/work-claims';
import type { SandboxWorkerConfig } from './config';
import { drainTime, sandboxIdentity } from './domain/sandbox-process';
import { createSandboxWorkerMetrics } from './metrics';
import { superviseSessions } from './clients/process-control';
import type { SandboxWorkerDeps } from './deps';
import { startSandboxSessions } from './service';

/**
 * Wiring: the bus runtime alone (the sandbox worker keeps no database; its one call is the
 * runtime's claim), the sessions' root directory, and the claim loop, stopped before the bus
 * drains.
 */
export async function startSandboxWorker(config: SandboxWorkerConfig, options: { logger?: Logger } = {}) {
  const runtime = await startServiceHost('sandbox-worker', config, { logger: options.logger });
  const metrics = createSandboxWorkerMetrics(runtime.telemetry.registry);
  try {
    superviseSessions(runtime.logger);
    const workerUid = process.getuid?.() ?? -1;
    const identity = sandboxIdentity(workerUid, { uid: config.SANDBOX_RUN_AS_UID, gid: config.SANDBOX_RUN_AS_GID });
    if (config.SANDBOX_RUN_AS_UID !== undefined && !identity) {
      runtime.logger.warn('SANDBOX_RUN_AS_UID is ignored: only a worker running as root can start sessions as another user', { uid: workerUid });
    }
    // Traversable by a session running as another user, never listable: it reaches its own directory only.
    await mkdir(config.SANDBOX_ROOT, { recursive: true, mode: 0o711 });
    await chmod(config.SANDBOX_ROOT, 0o711);
    const isolation = await prepareIsolation(config, runtime.logger);
    const deps: SandboxWorkerDeps = {
      logger: runtime.logger,
      claims: workClaims(runtime.client, config.SANDBOX_WORKER_ID),
      bus: runtime.client,
      metrics,
      identity,
      isolation,
      config,
    };
    const sessions = startSandboxSessions(deps);
    // The session in progress runs on through most of the grace period; then it is killed and
    // its directory removed before stopOnSignal's deadline ends the process.
    runtime.onStop(() => sessions.stop(drainTime(config.SHUTDOWN_GRACE_MS)));
  } catch (err) {
    await runtime.stop();
    throw err;
  }
  return { ...runtime, metrics };
}
export type RunningSandboxWorker = Awaited<ReturnType<typeof startSandboxWorker>>;
