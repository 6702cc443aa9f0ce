import { runService, stopOnSignal } from '@shared/service-host/run-until-signal';
import { loadSandboxWorkerConfig } from './config';
import { startSandboxWorker } from './start-sandbox-worker';

await runService(async () => {
  const config = loadSandboxWorkerConfig();
  const worker = await startSandboxWorker(config);
  stopOnSignal(worker.stop, config.SHUTDOWN_GRACE_MS, worker.logger);
}, 'sandbox-worker');
