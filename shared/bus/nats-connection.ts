import type { NodeConnectionOptions } from '@nats-io/transport-node';
import { ConfigError } from '../config/load-config';
import type { BusIdentity } from './subject';

export interface NatsSettings {
  NODE_ENV: 'development' | 'test' | 'production';
  NATS_URL: string;
  BUS_PREFIX: string;
  NATS_USER?: string;
  NATS_PASSWORD?: string;
  NATS_TLS_CA_FILE?: string;
  NATS_TLS_CERT_FILE?: string;
  NATS_TLS_KEY_FILE?: string;
}

/**
 * Where an identity's replies arrive. One prefix per identity (and install), so the server can
 * let each one subscribe to its own replies only: no service can read another's answers, such
 * as the decrypted credentials the vaults service returns to the deployments service.
 * The BUS_PREFIX part is joined with `-`, and no identity ends with `-<another identity>`
 * (shared/bus/subject.ts), so two installs' prefixes never overlap.
 */
export const inboxPrefix = (prefix: string, identity: BusIdentity): string =>
  `_INBOX.${prefix ? `${prefix}-` : ''}${identity}`;

/**
 * Connection options of a service: its identity, its own inbox, TLS. Production refuses to
 * connect without an identity, since an anonymous connection means a NATS on which anyone who
 * can reach it may read every tenant's traffic and call internal subjects.
 */
export function natsConnectionOptions(identity: BusIdentity, settings: NatsSettings): NodeConnectionOptions {
  if (settings.NODE_ENV === 'production' && !settings.NATS_USER) {
    throw new ConfigError('Invalid configuration: NATS_USER and NATS_PASSWORD are required when NODE_ENV=production');
  }
  const servers = settings.NATS_URL.split(',').map((s) => s.trim());
  // A tls:// URL or any TLS file means TLS is mandatory: the client then refuses a server that
  // does not offer it rather than falling back to plain text.
  const tlsWanted =
    servers.some((s) => s.startsWith('tls://')) ||
    settings.NATS_TLS_CA_FILE !== undefined ||
    settings.NATS_TLS_CERT_FILE !== undefined;
  return {
    servers,
    name: identity,
    inboxPrefix: inboxPrefix(settings.BUS_PREFIX, identity),
    maxReconnectAttempts: -1,
    // No stack captured at every request for the error it might end in: a timeout or no
    // responders is translated to our own error (bus-client.ts) whose message says what failed,
    // and the capture showed in every service's profile.
    noAsyncTraces: true,
    ...(settings.NATS_USER ? { user: settings.NATS_USER, pass: settings.NATS_PASSWORD } : {}),
    ...(tlsWanted
      ? {
          tls: {
            ...(settings.NATS_TLS_CA_FILE ? { caFile: settings.NATS_TLS_CA_FILE } : {}),
            ...(settings.NATS_TLS_CERT_FILE ? { certFile: settings.NATS_TLS_CERT_FILE, keyFile: settings.NATS_TLS_KEY_FILE } : {}),
          },
        }
      : {}),
  };
}
