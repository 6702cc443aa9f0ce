import { datetime, index, mysqlTable, varchar } from 'drizzle-orm/mysql-core';

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
