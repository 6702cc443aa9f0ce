import { runService, stopOnSignal } from '@shared/service-host/run-until-signal';
import { loadVaultsConfig } from './config';
import { startVaults } from './start-vaults';

await runService(async () => {
  const config = loadVaultsConfig();
  const runtime = await startVaults(config);
  stopOnSignal(runtime.stop, config.SHUTDOWN_GRACE_MS, runtime.logger);
}, 'vaults');
