import { runService, stopOnSignal } from '@shared/service-host/run-until-signal';
import { loadRuntimeConfig } from './config';
import { startRuntime } from './start-runtime';

await runService(async () => {
  const config = loadRuntimeConfig();
  const runtime = await startRuntime(config);
  stopOnSignal(runtime.stop, config.SHUTDOWN_GRACE_MS, runtime.logger);
}, 'runtime');
