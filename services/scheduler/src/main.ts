import { runService, stopOnSignal } from '@shared/service-host/run-until-signal';
import { loadSchedulerConfig } from './config';
import { startScheduler } from './start-scheduler';

await runService(async () => {
  const config = loadSchedulerConfig();
  const runtime = await startScheduler(config);
  stopOnSignal(runtime.stop, config.SHUTDOWN_GRACE_MS, runtime.logger);
}, 'scheduler');
