import type { Static, TSchema } from '@sinclair/typebox';
import { preparedInsert } from '../db/prepared';
import { newId } from '../ids/ids';
import type { Executor } from '../db/executor';
import type { OutboxTable } from '../db/outbox-table';
import type { TenantIds } from '../schema/tenant';
import type { EventEnvelope, EventType } from './event';

/** An event as it is stored in the outbox and published: its envelope, `type` being its subject. */
export function newEventEnvelope<P extends TSchema>(
  event: EventType<P>,
  tenant: TenantIds,
  data: Static<P>,
  now: Date,
): EventEnvelope<Static<P>> {
  return {
    id: newId('event'),
    type: event.subject,
    occurred_at: now.toISOString(),
    organization_id: tenant.organization_id,
    workspace_id: tenant.workspace_id,
    data,
  };
}

/**
 * Records events in the caller's transaction, in one statement. They reach JetStream only if
 * that transaction commits, and then always (the relay retries until they do).
 */
export async function recordEvents(tx: Executor, outbox: OutboxTable, envelopes: readonly EventEnvelope[]): Promise<void> {
  let insert = inserts.get(outbox);
  if (!insert) inserts.set(outbox, (insert = outboxInsert(outbox)));
  await insert(tx, envelopes.map((e) => ({ eventId: e.id, subject: e.type, payload: e, createdAt: new Date(e.occurred_at) })));
}

/** Most transactions record one or two events: those inserts are prepared, per table and count. */
const outboxInsert = (outbox: OutboxTable) =>
  preparedInsert(['eventId', 'subject', 'payload', 'createdAt'], 4, (db, rows) => db.insert(outbox).values(rows as Array<OutboxTable['$inferInsert']>));
const inserts = new WeakMap<OutboxTable, ReturnType<typeof outboxInsert>>();

/** Records one event in the caller's transaction (see recordEvents); returns its id. */
export async function recordEvent<P extends TSchema>(
  tx: Executor,
  outbox: OutboxTable,
  event: EventType<P>,
  tenant: TenantIds,
  data: Static<P>,
  now: Date,
): Promise<string> {
  const envelope = newEventEnvelope(event, tenant, data, now);
  await recordEvents(tx, outbox, [envelope]);
  return envelope.id;
}
