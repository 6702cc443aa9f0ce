import { defineOutboxTable } from '../../../../shared/db/outbox-table';

/** The catalog's own tables. */
export const outbox = defineOutboxTable();
