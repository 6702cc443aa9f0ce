import { index, mediumtext, mysqlTable, text, varchar } from 'drizzle-orm/mysql-core';
import { lifecycleColumns, ownedRowColumns, rowId } from '@shared/db/columns';
import { defineOutboxDeadLetterTable, defineOutboxTable } from '@shared/db/outbox-table';
import { jsonColumn } from '@shared/db/json-column';
import type { CredentialAuth } from '@shared/schema/vault-credential';

/** The vaults service's own tables. */
export const outbox = defineOutboxTable();
export const outboxDeadLetters = defineOutboxDeadLetterTable();

/**
 * One row per vault. The vault's data key lives here, wrapped by a master key (`data_key_id`
 * names which): deleting the row shreds every secret sealed under it.
 */
export const vaults = mysqlTable(
  'vaults',
  {
    ...ownedRowColumns(),
    displayName: varchar('display_name', { length: 255 }).notNull(),
    metadata: jsonColumn<Record<string, string>>('metadata').notNull(),
    dataKeyId: varchar('data_key_id', { length: 32 }).notNull(),
    wrappedDataKey: text('wrapped_data_key').notNull(),
    ...lifecycleColumns(),
  },
  (t) => [
    index('vaults_tenant_created').on(t.organizationId, t.workspaceId, t.createdAt, t.id),
    // Rotation finds the data keys not yet under the active master key.
    index('vaults_data_key_id').on(t.dataKeyId, t.id),
  ],
);
export type VaultRow = typeof vaults.$inferSelect;

/**
 * Credentials. `sealed_secret` is the whole auth (secret fields included) sealed with the
 * vault's data key, bound to the credential id; `auth` is the public part shown in responses.
 * Archiving a credential destroys its sealed secret.
 */
export const vaultCredentials = mysqlTable(
  'vault_credentials',
  {
    id: rowId().primaryKey(),
    vaultId: rowId('vault_id').notNull(),
    displayName: varchar('display_name', { length: 255 }),
    kind: varchar('kind', { length: 32 }).$type<CredentialAuth['type']>().notNull(),
    /** What two active credentials of one vault must not share: env var name or MCP server URL. */
    target: varchar('target', { length: 2048 }).notNull(),
    auth: jsonColumn<CredentialAuth>('auth').notNull(),
    metadata: jsonColumn<Record<string, string>>('metadata').notNull(),
    sealedSecret: mediumtext('sealed_secret'),
    ...lifecycleColumns(),
  },
  (t) => [index('vault_credentials_vault_created').on(t.vaultId, t.createdAt, t.id)],
);
export type VaultCredentialRow = typeof vaultCredentials.$inferSelect;
