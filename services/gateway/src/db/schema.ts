import { datetime, index, mediumtext, mysqlTable, primaryKey, smallint, text, varchar } from 'drizzle-orm/mysql-core';
import { instant, tenantColumns } from '@shared/db/columns';

/** API keys, owned by the gateway. Only a SHA-256 of each key is stored; the key is shown once. */
export const apiKeys = mysqlTable(
  'api_keys',
  {
    id: varchar('id', { length: 40 }).primaryKey(),
    secretHash: varchar('secret_hash', { length: 64 }).notNull().unique(),
    /** The key's last four characters, so an operator can tell keys apart in `keys list`. */
    hint: varchar('hint', { length: 8 }).notNull(),
    organizationId: varchar('organization_id', { length: 64 }).notNull(),
    workspaceId: varchar('workspace_id', { length: 64 }).notNull(),
    scope: varchar('scope', { length: 16 }).$type<'read_write' | 'read_only'>().notNull(),
    name: varchar('name', { length: 256 }),
    createdAt: datetime('created_at', { mode: 'date', fsp: 3 }).notNull(),
    revokedAt: datetime('revoked_at', { mode: 'date', fsp: 3 }),
  },
  (t) => [index('api_keys_tenant').on(t.organizationId, t.workspaceId)],
);

/**
 * POSTs sent with an `Idempotency-Key`, per tenant and key, kept 24 h from the first
 * (idempotency/idempotent-requests.ts): while the first runs, a row without a status; then the
 * answer a retry gets. Expired rows are deleted in batches by every replica's sweep, oldest first.
 */
export const idempotencyKeys = mysqlTable(
  'idempotency_keys',
  {
    ...tenantColumns(),
    /**
     * SHA-256 of the key: fixed width, and compared exactly (the databases' PAD SPACE collation
     * would take `k` and `k ` for one key).
     */
    keyHash: varchar('key_hash', { length: 64 }).notNull(),
    /** SHA-256 of the method, path and body: a retry must be the same request. */
    requestHash: varchar('request_hash', { length: 64 }).notNull(),
    /** The request that holds (or held) the key; it alone records or releases it. */
    claimId: varchar('claim_id', { length: 40 }).notNull(),
    /** The answer's status; null while the first request runs. */
    status: smallint('status'),
    /** The answer's own headers (content type), as a JSON object. */
    responseHeaders: text('response_headers'),
    responseBody: mediumtext('response_body'),
    createdAt: instant('created_at').notNull(),
    /** While the request runs: past this its process is taken for gone, and a retry may run it again. */
    lockedUntil: instant('locked_until').notNull(),
  },
  (t) => [
    primaryKey({ name: 'idempotency_keys_key', columns: [t.organizationId, t.workspaceId, t.keyHash] }),
    index('idempotency_keys_created_at').on(t.createdAt),
  ],
);
