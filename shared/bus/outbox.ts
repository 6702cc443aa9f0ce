import type { Static, TSchema } from '@sinclair/typebox';
import { newId } from '../ids/ids';
import type { Executor } from '../db/executor';
import type { OutboxTable } from '../db/outbox-table';
import type { Tenant } from '../schema/tenant';
import type { EventEnvelope, EventType } from './event';

/**
 * Records an event in the caller's transaction. It reaches JetStream only if that transaction
 * commits, and then always (the relay retries until it does).
 */
export async function recordEvent<P extends TSchema>(
  tx: Executor,
  outbox: OutboxTable,
  event: EventType<P>,
  tenant: Pick<Tenant, 'organization_id' | 'workspace_id'>,
  data: Static<P>,
  now: Date,
): Promise<string> {
  const id = newId('event');
  const envelope: EventEnvelope<Static<P>> = {
    id,
    type: event.subject,
    occurred_at: now.toISOString(),
    organization_id: tenant.organization_id,
    workspace_id: tenant.workspace_id,
    data,
  };
  await tx.insert(outbox).values({ eventId: id, subject: event.subject, payload: envelope, createdAt: now });
  return id;
}
