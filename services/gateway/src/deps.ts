import type { BusClient } from '@shared/bus/bus-client';
import type { Logger } from '@shared/log/logger';
import type { Authenticator } from './auth/authenticate';
import type { GatewayConfig } from './config';
import type { IdempotentRequests } from './idempotency/idempotent-requests';
import type { RateLimits } from './limits/rate-limits';
import type { SessionLogFollower } from '@shared/bus/session-log-follower';
import type { SessionAppendFeed, SessionPreviewFeed } from './modules/session-events/session-feeds';

/**
 * What route modules receive, built once by start-gateway.ts; they never see the framework
 * beyond their own Elysia instance.
 */
export interface GatewayDeps {
  config: GatewayConfig;
  bus: BusClient;
  authenticator: Authenticator;
  logger: Logger;
  ready: () => Promise<void>;
  /** This replica's subscription to session log notices, which its event streams follow. */
  sessionLog: SessionLogFollower;
  /** This replica's share of the runtime's previews of events being produced (`event_deltas`). */
  sessionPreviews: SessionPreviewFeed;
  /** This replica's share of what each append added to a session's log (read by its streams without asking). */
  sessionAppends: SessionAppendFeed;
  /** The per-key and per-workspace limits every replica shares (limits/rate-limits.ts). */
  rateLimits: RateLimits;
  /** POSTs sent with an Idempotency-Key: their keys and kept answers. */
  idempotency: IdempotentRequests;
}
