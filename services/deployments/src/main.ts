import { runService, stopOnSignal } from '@shared/service-host/run-until-signal';
import { loadDeploymentsConfig } from './config';
import { startDeployments } from './start-deployments';

await runService(async () => {
  const config = loadDeploymentsConfig();
  const runtime = await startDeployments(config);
  stopOnSignal(runtime.stop, config.SHUTDOWN_GRACE_MS, runtime.logger);
}, 'deployments');
