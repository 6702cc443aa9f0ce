import { createLogger } from '@shared/log/logger';
import { runService, stopOnSignal } from '@shared/service-host/run-until-signal';
import { loadGatewayConfig } from './config';
import { startGateway } from './start-gateway';

await runService(async () => {
  const config = loadGatewayConfig();
  const gateway = await startGateway(config);
  stopOnSignal(gateway.stop, config.SHUTDOWN_GRACE_MS, createLogger(config.LOG_LEVEL, { service: 'gateway' }));
}, 'gateway');
