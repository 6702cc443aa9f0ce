import { and, eq, inArray, sql } from 'drizzle-orm';
import { newEventEnvelope, recordEvents } from '@shared/bus/outbox';
import type { EventEnvelope } from '@shared/bus/event';
import type { Database } from '@shared/db/connect';
import type { Executor } from '@shared/db/executor';
import { findOwnedRow } from '@shared/db/find-owned-row';
import { ownedBy, tenantPlaceholders } from '@shared/db/owned-by';
import { prepared } from '@shared/db/prepared';
import { found } from '@shared/errors/api-error';
import { sessionEvents, type SessionResource } from '@shared/schema/session';
import type { Tenant } from '@shared/schema/tenant';
import { sessionNotFound } from '../domain/not-found';
import { tenantOfRow } from '../domain/row-tenant';
import { sessionCreatedEvent } from '../domain/session-create';
import { materialised, mountedMemoryStores } from '../domain/session-resources';
import { sessionArchivedRefusal, type SessionChange } from '../domain/session-update';
import { outbox, sessionMemoryStores, sessions, sessionSecrets, type DeploymentRunRow, type SessionRow } from './schema';
import { appendSessionEvents } from './session-log';

// A session's rows: finding and locking it, recording new ones, changing and deleting them. Its
// log is db/session-log.ts (appends) and db/session-events.ts (reads); its list db/session-list.ts.

/** The tenant's session: every read of one (a get, each step of a drive, every stream's first read). */
export const findSession = async (db: Executor, tenant: Tenant, id: string): Promise<SessionRow | undefined> =>
  (await selectSession(db, { id, organization_id: tenant.organization_id, workspace_id: tenant.workspace_id }))[0];

const selectSession = prepared((db) =>
  db
    .select()
    .from(sessions)
    .where(and(eq(sessions.id, sql.placeholder('id')), ownedBy(sessions, tenantPlaceholders)))
    .prepare(),
);

/** The tenant's session, locked (FOR UPDATE) until the transaction ends: every change of a session is made under it. */
export const lockSession = (tx: Executor, tenant: Tenant, id: string): Promise<SessionRow | undefined> =>
  findOwnedRow(tx, sessions, tenant, id, { lock: true });

/** What an append reads of its session: who owns it, whether it takes events, where its log ends and what the append moves on. */
export type AppendingSession = Pick<
  SessionRow,
  'id' | 'organizationId' | 'workspaceId' | 'status' | 'archivedAt' | 'outcomeEvaluations' | 'initialEvents' | 'usage' | 'lastSequence' | 'revision'
>;

/**
 * The tenant's session locked for an append (a client's send, the runtime's three a turn): the
 * columns an append reads, not the agent snapshot, resources and metadata, which can be large
 * (a long system prompt, many tools) and which no append reads.
 */
export async function lockSessionForAppend(tx: Executor, tenant: Tenant, id: string): Promise<AppendingSession | undefined> {
  const [row] = await selectSessionForAppend(tx, { id, organization_id: tenant.organization_id, workspace_id: tenant.workspace_id });
  return row;
}

/** The columns of AppendingSession. */
const appendingColumns = {
  id: sessions.id,
  organizationId: sessions.organizationId,
  workspaceId: sessions.workspaceId,
  status: sessions.status,
  archivedAt: sessions.archivedAt,
  outcomeEvaluations: sessions.outcomeEvaluations,
  initialEvents: sessions.initialEvents,
  usage: sessions.usage,
  lastSequence: sessions.lastSequence,
  revision: sessions.revision,
};

const selectSessionForAppend = prepared((db) =>
  db
    .select(appendingColumns)
    .from(sessions)
    .where(and(eq(sessions.id, sql.placeholder('id')), ownedBy(sessions, tenantPlaceholders)))
    .for('update')
    .prepare(),
);

/**
 * Sessions locked for a batch of appends (db/append-batch.ts), in one statement, by id
 * alone: the caller keeps each item's own (ownRow), so another tenant's row is no row, as for one.
 * One statement takes its locks in the primary key's order, so two batches do not deadlock on
 * them (a deadlock elsewhere is retried, as every append's is).
 */
export const lockSessionsForAppend = (tx: Executor, ids: string[]): Promise<AppendingSession[]> =>
  tx.select(appendingColumns).from(sessions).where(inArray(sessions.id, ids)).for('update');

/**
 * A new session as it is recorded: the row, the fire's run when a fire created it, its sealed
 * tokens, and its `sessions.created` event (sessionCreatedEnvelope), made before the write so that
 * whoever commits it can publish it from memory.
 */
export interface NewSessionRecord {
  session: SessionRow;
  run: DeploymentRunRow | null;
  secrets: Array<{ resourceId: string; sealed: string }>;
  created: EventEnvelope;
}

/** A new session's `sessions.created` event. */
export const sessionCreatedEnvelope = (session: SessionRow, run: DeploymentRunRow | null): EventEnvelope =>
  newEventEnvelope(sessionEvents.created, tenantOfRow(session), sessionCreatedEvent(session, run), session.createdAt);

/**
 * Records new sessions in the caller's transaction, one statement per table whatever their
 * number: the sessions, the memory stores they mount (what the memory_store_id filter pages
 * on), their initial events as the first of their logs, their sealed tokens and their
 * `sessions.created` events. The one write of every new
 * session, the API's and the fire's (db/runs.ts insertRuns) alike. Returns the events recorded.
 */
export async function recordNewSessions(tx: Executor, records: NewSessionRecord[]): Promise<EventEnvelope[]> {
  if (records.length === 0) return [];
  const rows = records.map((r) => r.session);
  await tx.insert(sessions).values(rows);
  const mounts = rows.flatMap((row) => mountsOf(row, mountedMemoryStores(row.resources)));
  if (mounts.length > 0) await tx.insert(sessionMemoryStores).values(mounts);
  // The initial events are the first events of every session's log (db/session-log.ts, the one appender).
  await appendSessionEvents(tx, rows.map((row) => ({ sessionId: row.id, events: row.initialEvents, at: row.createdAt })));
  const secrets = records.flatMap((r) => r.secrets.map((s) => ({ sessionId: r.session.id, ...s })));
  if (secrets.length > 0) await tx.insert(sessionSecrets).values(secrets);
  const envelopes = records.map((r) => r.created);
  await recordEvents(tx, outbox, envelopes);
  return envelopes;
}

const mountsOf = (row: SessionRow, storeIds: string[]) =>
  storeIds.map((memoryStoreId) => ({
    sessionId: row.id,
    memoryStoreId,
    organizationId: row.organizationId,
    workspaceId: row.workspaceId,
    sessionCreatedAt: row.createdAt,
  }));

/**
 * Writes a change of a locked session, moving its `revision` (the one writer of the row besides
 * its log's summary, so every change the runtime would read moves it); when its resources
 * change, the memory stores it mounts follow (the rows of stores no longer mounted go, new ones come).
 */
export async function updateSession(tx: Executor, row: SessionRow, change: SessionChange): Promise<SessionRow> {
  await tx.update(sessions).set({ ...change, revision: sql`${sessions.revision} + 1` }).where(eq(sessions.id, row.id));
  const next = { ...row, ...change, revision: row.revision + 1 };
  if (change.resources) {
    const before = new Set(mountedMemoryStores(row.resources));
    const after = new Set(mountedMemoryStores(change.resources));
    const gone = [...before].filter((id) => !after.has(id));
    const added = [...after].filter((id) => !before.has(id));
    if (gone.length > 0) {
      await tx.delete(sessionMemoryStores).where(and(eq(sessionMemoryStores.sessionId, row.id), inArray(sessionMemoryStores.memoryStoreId, gone)));
    }
    if (added.length > 0) await tx.insert(sessionMemoryStores).values(mountsOf(row, added));
  }
  return next;
}

/**
 * A change of an unarchived session's resources, in one transaction under the session's row
 * lock: `change` gets the row and its resources with their identities (materialised). Missing
 * (or another tenant's): 404; archived: the one archived refusal, naming `what`.
 */
export function changeSessionResources<R>(
  db: Database,
  tenant: Tenant,
  id: string,
  what: string,
  change: (tx: Executor, row: SessionRow, resources: SessionResource[]) => Promise<R>,
): Promise<R> {
  return db.transaction(async (tx) => {
    const row = found(await lockSession(tx, tenant, id), () => sessionNotFound(id));
    if (row.archivedAt) throw sessionArchivedRefusal(id, what);
    return change(tx, row, materialised(row.id, row.createdAt, row.resources));
  });
}

/** A token sealed for a resource of the session, replacing the one it had. */
export async function putSessionSecret(tx: Executor, sessionId: string, resourceId: string, sealed: string): Promise<void> {
  await tx.insert(sessionSecrets).values({ sessionId, resourceId, sealed }).onDuplicateKeyUpdate({ set: { sealed } });
}

export async function deleteSessionSecret(tx: Executor, sessionId: string, resourceId: string): Promise<void> {
  await tx.delete(sessionSecrets).where(and(eq(sessionSecrets.sessionId, sessionId), eq(sessionSecrets.resourceId, resourceId)));
}

/** A session and everything of it in this service's tables, for good (DELETE /v1/sessions/{id}). */
export async function deleteSessionRows(tx: Executor, id: string): Promise<void> {
  await tx.delete(sessionSecrets).where(eq(sessionSecrets.sessionId, id));
  await tx.delete(sessionMemoryStores).where(eq(sessionMemoryStores.sessionId, id));
  await tx.delete(sessions).where(eq(sessions.id, id));
}
