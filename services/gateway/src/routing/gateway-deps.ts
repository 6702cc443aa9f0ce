import type { BusClient } from '@shared/bus/bus-client';
import type { Logger } from '@shared/log/logger';
import type { Authenticator } from '../auth/authenticate';
import type { GatewayConfig } from '../config';

/** What route modules receive; they never see the framework beyond their own Elysia instance. */
export interface GatewayDeps {
  config: GatewayConfig;
  bus: BusClient;
  authenticator: Authenticator;
  logger: Logger;
  ready: () => Promise<void>;
}
