import type { Static, TSchema } from '@sinclair/typebox';
import { eq } from 'drizzle-orm';
import type { MySqlColumn, MySqlTable } from 'drizzle-orm/mysql-core';
import type { EventType } from '@shared/bus/event';
import { recordEvent } from '@shared/bus/outbox';
import type { Executor } from '@shared/db/executor';
import { findOwnedRow, type OwnedTable } from '@shared/db/find-owned-row';
import type { Tenant } from '@shared/schema/tenant';
import type { StoreDeps } from '@shared/service-host/store-deps';
import { outbox } from './schema';

/**
 * The two lifecycle steps the catalog's resources share. Each runs in one transaction that
 * holds the row's lock, records the resource's event with the change (so the event leaves if
 * and only if the change commits), and wakes the relay (`eventsRecorded`) after the commit.
 */

/** The event a change announces. */
export interface Announcement<P extends TSchema> {
  event: EventType<P>;
  data: Static<P>;
}

type ArchivableTable = OwnedTable & { archivedAt: MySqlColumn; updatedAt: MySqlColumn };

/**
 * Archives the tenant's row and announces it. Idempotent: a row already archived is answered
 * as it is, and nothing is announced again. Undefined when the tenant has no such row.
 */
export async function archiveOwnedRow<T extends ArchivableTable, P extends TSchema>(
  deps: StoreDeps,
  table: T,
  tenant: Tenant,
  id: string,
  announce: Announcement<P>,
): Promise<T['$inferSelect'] | undefined> {
  const result = await deps.db.transaction(async (tx) => {
    const current = await findOwnedRow(tx, table, tenant, id, { lock: true });
    if (!current) return undefined;
    if ((current as { archivedAt: Date | null }).archivedAt) return { row: current, archivedNow: false };
    const now = deps.clock.now();
    // Every archivable table has these two columns; drizzle cannot see it through the generic.
    await tx
      .update(table as MySqlTable)
      .set({ archivedAt: now, updatedAt: now } as never)
      .where(eq(table.id, id));
    await recordEvent(tx, outbox, announce.event, tenant, announce.data, now);
    return { row: { ...current, archivedAt: now, updatedAt: now }, archivedNow: true };
  });
  if (result?.archivedNow) deps.eventsRecorded();
  return result?.row;
}

/**
 * Deletes the tenant's row with `remove` (the row and whatever hangs off it) and announces it.
 * False when the tenant has no such row.
 */
export async function deleteOwnedRow<P extends TSchema>(
  deps: StoreDeps,
  table: OwnedTable,
  tenant: Tenant,
  id: string,
  remove: (tx: Executor, id: string) => Promise<void>,
  announce: Announcement<P>,
): Promise<boolean> {
  const deleted = await deps.db.transaction(async (tx) => {
    if (!(await findOwnedRow(tx, table, tenant, id, { lock: true }))) return false;
    await remove(tx, id);
    await recordEvent(tx, outbox, announce.event, tenant, announce.data, deps.clock.now());
    return true;
  });
  if (deleted) deps.eventsRecorded();
  return deleted;
}
