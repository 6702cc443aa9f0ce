import { defineOutboxTable } from '../../../../shared/db/outbox-table';

/** The scheduler service's own tables. */
export const outbox = defineOutboxTable();
