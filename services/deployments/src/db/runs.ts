import type { PageRequest } from '@shared/db/keyset-page';
import { createdAtConditions } from '@shared/db/list-filters';
import { and, eq, isNotNull, isNull, type SQL } from 'drizzle-orm';
import { recordEvent } from '@shared/bus/outbox';
import type { Executor } from '@shared/db/executor';
import { findOwnedRow } from '@shared/db/find-owned-row';
import { keysetAfter, newestFirst, readPage } from '@shared/db/keyset-page';
import { ownedBy } from '@shared/db/owned-by';
import { hasErrno } from '@shared/errors/cause-chain';
import type { PagePosition } from '@shared/schema/common';
import type { DeploymentRunListFilters } from '@shared/schema/deployment-run';
import { sessionEvents } from '@shared/schema/session';
import type { Tenant } from '@shared/schema/tenant';
import { sessionCreatedEvent } from '../domain/fire';
import { deploymentRuns, outbox, RUN_LIST_INDEXES, type DeploymentRunRow, type SessionRow } from './schema';
import { insertSession } from './sessions';

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

/**
 * What a fire records, in the caller's transaction: the session it created (with
 * `sessions.created`) and the run naming it, or the run carrying the error that prevented one.
 */
export async function insertRun(tx: Executor, run: DeploymentRunRow, session: SessionRow | null): Promise<void> {
  if (session) await insertSession(tx, session);
  await tx.insert(deploymentRuns).values(run);
  if (session) {
    const tenant = { organization_id: session.organizationId, workspace_id: session.workspaceId };
    await recordEvent(tx, outbox, sessionEvents.created, tenant, sessionCreatedEvent(session, run), run.createdAt);
  }
}

/** MySQL and MariaDB both report a unique-key collision as errno 1062 (ER_DUP_ENTRY). */
const DUPLICATE_KEY = new Set([1062]);
export const isDuplicateKey = (err: unknown): boolean => hasErrno(err, DUPLICATE_KEY);
