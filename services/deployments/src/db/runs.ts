import type { PageRequest } from '@shared/db/keyset-page';
import { createdAtConditions } from '@shared/db/list-filters';
import { and, asc, eq, inArray, isNotNull, isNull, or, type SQL } from 'drizzle-orm';
import type { Executor } from '@shared/db/executor';
import { findOwnedRow } from '@shared/db/find-owned-row';
import { keysetAfter, newestFirst, readPage } from '@shared/db/keyset-page';
import { ownedBy } from '@shared/db/owned-by';
import type { PagePosition } from '@shared/schema/common';
import type { DeploymentRunListFilters } from '@shared/schema/deployment-run';
import type { Tenant } from '@shared/schema/tenant';
import { deploymentRuns, deployments, RUN_LIST_INDEXES, type DeploymentRow, type DeploymentRunRow, type SessionRow } from './schema';
import { ownRow } from '../domain/row-tenant';
import { recordNewSessions, sessionCreatedEnvelope } from './sessions';

/** A fire's first read: the deployment, and for a scheduled fire the occurrence it names. */
export interface OccurrenceLookup {
  tenant: Tenant;
  id: string;
  scheduledAt: Date | null;
}

/** What a fire's first read found: the tenant's deployment, and the run of the occurrence it names. */
export interface OccurrenceRead {
  deployment: DeploymentRow | undefined;
  run: DeploymentRunRow | undefined;
}

/**
 * For each lookup, the tenant's deployment (undefined: missing, or another tenant's) and the
 * run already recorded for its occurrence: two statements whatever the number of lookups (the
 * deployments by primary key, the runs by their unique key), run side by side.
 */
export async function findDeploymentsAndOccurrenceRuns(db: Executor, lookups: OccurrenceLookup[]): Promise<OccurrenceRead[]> {
  const scheduled = lookups.filter((l): l is OccurrenceLookup & { scheduledAt: Date } => l.scheduledAt !== null);
  const [rows, runs] = await Promise.all([
    db.select().from(deployments).where(inArray(deployments.id, [...new Set(lookups.map((l) => l.id))])),
    scheduled.length === 0
      ? Promise.resolve([])
      : db
          .select()
          .from(deploymentRuns)
          .where(or(...scheduled.map((l) => and(eq(deploymentRuns.deploymentId, l.id), eq(deploymentRuns.scheduledAt, l.scheduledAt))))),
  ]);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const runByOccurrence = new Map(runs.map((r) => [`${r.deploymentId}@${r.scheduledAt!.getTime()}`, r]));
  return lookups.map((l) => {
    // Another tenant's deployment is no deployment, and neither are its runs.
    const row = ownRow(byId.get(l.id), l.tenant);
    if (!row) return { deployment: undefined, run: undefined };
    return { deployment: row, run: l.scheduledAt ? runByOccurrence.get(`${l.id}@${l.scheduledAt.getTime()}`) : undefined };
  });
}

/** The run already recorded for a scheduled occurrence, if any (the idempotency key). */
export async function findRunForOccurrence(db: Executor, deploymentId: string, scheduledAt: Date): Promise<DeploymentRunRow | undefined> {
  const [row] = await db
    .select()
    .from(deploymentRuns)
    .where(and(eq(deploymentRuns.deploymentId, deploymentId), eq(deploymentRuns.scheduledAt, scheduledAt)));
  return row;
}

export const findRun = (db: Executor, tenant: Tenant, id: string): Promise<DeploymentRunRow | undefined> =>
  findOwnedRow(db, deploymentRuns, tenant, id);

/** One page of the tenant's runs, newest first, read in chunks within the page byte budget. */
export function listRunPage<T>(
  db: Executor,
  tenant: Tenant,
  { filters, limit, after: position }: PageRequest<DeploymentRunListFilters>,
  present: (row: DeploymentRunRow) => T,
): Promise<{ data: T[]; next: PagePosition | null }> {
  const t = deploymentRuns;
  const conditions: SQL[] = [ownedBy(t, tenant)];
  if (filters.deployment_id !== undefined) conditions.push(eq(t.deploymentId, filters.deployment_id));
  if (filters.trigger_type !== undefined) conditions.push(eq(t.triggerType, filters.trigger_type));
  if (filters.has_error !== undefined) conditions.push(filters.has_error ? isNotNull(t.errorType) : isNull(t.errorType));
  conditions.push(...createdAtConditions(t.createdAt, filters));
  const index = filters.deployment_id !== undefined ? RUN_LIST_INDEXES.deployment : RUN_LIST_INDEXES.all;
  const readChunk = (from: PagePosition | null, count: number) =>
    db
      .select()
      .from(t, { forceIndex: index })
      .where(and(...conditions, keysetAfter(t, from)))
      .orderBy(...newestFirst(t))
      .limit(count);
  return readPage(readChunk, position, limit, present);
}

/** What one fire records: its run, and the session it created (null when an error prevented one). */
export interface FireRecord {
  run: DeploymentRunRow;
  session: SessionRow | null;
}

/**
 * What several fires record, in the caller's transaction, with one statement per table (the
 * sessions with their mounts and sessions.created events, written by recordNewSessions as every
 * new session is, then the runs) however many fires there are. A run whose occurrence is recorded already fails the whole statement on the
 * unique key (the transaction is then rolled back by its caller).
 */
export async function insertRuns(tx: Executor, fires: FireRecord[]): Promise<void> {
  if (fires.length === 0) return;
  await recordNewSessions(tx, fires.flatMap((f) => (f.session ? [{ session: f.session, run: f.run, secrets: [], created: sessionCreatedEnvelope(f.session, f.run) }] : [])));
  await tx.insert(deploymentRuns).values(fires.map((f) => f.run));
}

/**
 * The deployments' rows by id, locked (FOR UPDATE) until the transaction ends, in one
 * statement. Not tenant-scoped: the caller matches each row's tenant against the fire's own.
 * The rows lock in primary-key order, so two such statements never deadlock each other.
 */
export async function lockDeployments(tx: Executor, ids: string[]): Promise<DeploymentRow[]> {
  if (ids.length === 0) return [];
  return tx.select().from(deployments).where(inArray(deployments.id, ids)).orderBy(asc(deployments.id)).for('update');
}

/** Bookkeeping of successful scheduled runs (no revision bump, no event): one statement for all of them. */
export async function setLastRunAtOf(tx: Executor, ids: string[], at: Date): Promise<void> {
  if (ids.length === 0) return;
  await tx.update(deployments).set({ lastRunAt: at }).where(inArray(deployments.id, ids));
}
