import { keysetAfter, newestFirst, readPage } from '@shared/db/keyset-page';
import { and, eq, gte, isNull, lte, type SQL } from 'drizzle-orm';
import type { Database } from '@shared/db/connect';
import type { PagePosition } from '@shared/schema/common';
import type { DeploymentListFilters } from '@shared/schema/deployment';
import { DEPLOYMENT_LIST_INDEXES, deploymentSecrets, deployments, type DeploymentRow } from './schema';

export type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];
type Tenant = { organization_id: string; workspace_id: string };

export async function insertDeployment(
  tx: Tx,
  row: typeof deployments.$inferInsert,
  secrets: Array<{ resourceIndex: number; sealed: string }>,
): Promise<void> {
  await tx.insert(deployments).values(row);
  if (secrets.length > 0) {
    await tx.insert(deploymentSecrets).values(secrets.map((s) => ({ deploymentId: row.id, ...s })));
  }
}

/** The index whose leading columns are the filters' equalities, most selective first. */
function listIndexFor(filters: DeploymentListFilters): string {
  if (filters.agent_id !== undefined) return DEPLOYMENT_LIST_INDEXES.agent;
  if (filters.status !== undefined) return DEPLOYMENT_LIST_INDEXES.status;
  return filters.include_archived ? DEPLOYMENT_LIST_INDEXES.all : DEPLOYMENT_LIST_INDEXES.live;
}

/**
 * One page of a tenant's deployments, newest first, read in chunks within the page byte budget
 * (shared/db/keyset-page.ts), each row turned into its API form by `present`. The keyset
 * condition is spelled out (`created_at < ? OR (created_at = ? AND id < ?)`), not as a row
 * comparison, which the optimizer does not turn into an index range.
 *
 * The index is named. Left to itself, MariaDB 10.11 plans `ORDER BY ... LIMIT` as a backward
 * `ref` scan over the tenant prefix and discards every row above the cursor, so page 100 read
 * 2,000 rows to return 20 (measured by bench/list-deployments.ts); forced to the index for the
 * filter shape, it seeks straight to the cursor (`range`) and reads one chunk at any depth.
 */
export function listDeploymentPage<T>(
  db: Database,
  tenant: Tenant,
  filters: DeploymentListFilters,
  limit: number,
  after: PagePosition | null,
  present: (row: DeploymentRow) => T,
): Promise<{ data: T[]; next: PagePosition | null }> {
  return readPage((from, count) => deploymentPageQuery(db, tenant, filters, count, from), after, limit, present);
}

/** One chunk's query: up to `count` deployments beyond `after`, unexecuted (the benchmark EXPLAINs it). */
export function deploymentPageQuery(
  db: Database,
  tenant: Tenant,
  filters: DeploymentListFilters,
  count: number,
  after: PagePosition | null,
) {
  const conditions: SQL[] = [
    eq(deployments.organizationId, tenant.organization_id),
    eq(deployments.workspaceId, tenant.workspace_id),
  ];
  if (!filters.include_archived) conditions.push(isNull(deployments.archivedAt));
  if (filters.status !== undefined) conditions.push(eq(deployments.status, filters.status));
  if (filters.agent_id !== undefined) conditions.push(eq(deployments.agentId, filters.agent_id));
  if (filters.created_at_gte !== undefined) conditions.push(gte(deployments.createdAt, new Date(filters.created_at_gte)));
  if (filters.created_at_lte !== undefined) conditions.push(lte(deployments.createdAt, new Date(filters.created_at_lte)));
  const position = keysetAfter(deployments, after);
  if (position) conditions.push(position);
  return db
    .select()
    .from(deployments, { forceIndex: listIndexFor(filters) })
    .where(and(...conditions))
    .orderBy(...newestFirst(deployments))
    .limit(count);
}

/** One deployment of the tenant; `lock` takes the row lock for the rest of the transaction. */
export async function findDeployment(
  db: Database | Tx,
  tenant: Tenant,
  id: string,
  options: { lock?: boolean } = {},
): Promise<DeploymentRow | undefined> {
  const query = db
    .select()
    .from(deployments)
    .where(
      and(
        eq(deployments.id, id),
        eq(deployments.organizationId, tenant.organization_id),
        eq(deployments.workspaceId, tenant.workspace_id),
      ),
    );
  const [row] = options.lock ? await query.for('update') : await query;
  return row;
}

/**
 * Writes a change only if the row is still at the revision it was computed from (the
 * optimistic lock of an update whose checks ran outside the transaction). Returns whether it did.
 */
export async function updateDeploymentAtRevision(
  tx: Tx,
  id: string,
  expectedRevision: number,
  change: Partial<typeof deployments.$inferInsert>,
): Promise<boolean> {
  const [result] = await tx
    .update(deployments)
    .set(change)
    .where(and(eq(deployments.id, id), eq(deployments.revision, expectedRevision)));
  return result.affectedRows === 1;
}

/** A replaced `resources` list brings its own tokens: the old ones go, the new ones come in. */
export async function replaceDeploymentSecrets(
  tx: Tx,
  deploymentId: string,
  secrets: Array<{ resourceIndex: number; sealed: string }>,
): Promise<void> {
  await tx.delete(deploymentSecrets).where(eq(deploymentSecrets.deploymentId, deploymentId));
  if (secrets.length > 0) {
    await tx.insert(deploymentSecrets).values(secrets.map((s) => ({ deploymentId, ...s })));
  }
}

/** Bookkeeping of a successful scheduled run; not a change of the deployment (no revision bump). */
export async function setLastRunAt(tx: Tx, id: string, at: Date): Promise<void> {
  await tx.update(deployments).set({ lastRunAt: at }).where(eq(deployments.id, id));
}
