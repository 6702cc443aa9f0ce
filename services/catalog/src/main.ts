import { runService, stopOnSignal } from '@shared/service-host/run-until-signal';
import { loadCatalogConfig } from './config';
import { startCatalog } from './start-catalog';

await runService(async () => {
  const config = loadCatalogConfig();
  const runtime = await startCatalog(config);
  stopOnSignal(runtime.stop, config.SHUTDOWN_GRACE_MS, runtime.logger);
}, 'catalog');
