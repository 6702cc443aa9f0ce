import type { BusIdentity } from './subject';

/**
 * JetStream key-value buckets: state the replicas of one service share that is no domain event
 * and belongs in no database (the gateway's rate limit buckets). Declared once with the identities
 * that use them; their NATS permissions are generated from this (shared/bus/permissions.ts).
 */
export const KEY_VALUE_BUCKETS = {
  rateLimits: { name: 'RATE_LIMITS', users: ['gateway'] },
} as const satisfies Record<string, { name: string; users: readonly BusIdentity[] }>;
export type KeyValueBucketKey = keyof typeof KEY_VALUE_BUCKETS;

/** `<BUS_PREFIX>_<NAME>` (KV bucket names allow letters, digits, `-` and `_`); its stream is `KV_` + this. */
export const keyValueBucketName = (prefix: string, key: KeyValueBucketKey): string =>
  `${prefix ? prefix.replace(/[^A-Za-z0-9_-]/g, '_') + '_' : ''}${KEY_VALUE_BUCKETS[key].name}`;
