import { defineOutboxTable } from '../../../../shared/db/outbox-table';

/** The deployments service's own tables. */
export const outbox = defineOutboxTable();
