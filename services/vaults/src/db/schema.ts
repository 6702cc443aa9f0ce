import { defineOutboxTable } from '../../../../shared/db/outbox-table';

/** The vaults service's own tables. */
export const outbox = defineOutboxTable();
