import { and, desc, eq, gte, isNull, lt, lte, or, type SQL } from 'drizzle-orm';
import type { Database } from '../../../../shared/db/connect';
import type { PagePosition } from '../../../../shared/schema/common';
import type { DeploymentListFilters } from '../../../../shared/schema/deployment';
import { deploymentSecrets, deployments, type DeploymentRow } from './schema';

type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];
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

/**
 * One page of a tenant's deployments, newest first, in one query. The keyset condition is
 * spelled out (`created_at < ? OR (created_at = ? AND id < ?)`) rather than as a row
 * comparison, which MySQL does not turn into an index range; every filter combination has an
 * index whose trailing columns are (created_at, id), so the page is a short range read.
 * Fetches one row more than the page to know whether another page follows.
 */
export async function listDeploymentPage(
  db: Database,
  tenant: Tenant,
  filters: DeploymentListFilters,
  limit: number,
  after: PagePosition | null,
): Promise<{ rows: DeploymentRow[]; next: PagePosition | null }> {
  const conditions: SQL[] = [
    eq(deployments.organizationId, tenant.organization_id),
    eq(deployments.workspaceId, tenant.workspace_id),
  ];
  if (!filters.include_archived) conditions.push(isNull(deployments.archivedAt));
  if (filters.status !== undefined) conditions.push(eq(deployments.status, filters.status));
  if (filters.agent_id !== undefined) conditions.push(eq(deployments.agentId, filters.agent_id));
  if (filters.created_at_gte !== undefined) conditions.push(gte(deployments.createdAt, new Date(filters.created_at_gte)));
  if (filters.created_at_lte !== undefined) conditions.push(lte(deployments.createdAt, new Date(filters.created_at_lte)));
  if (after) {
    const at = new Date(after.created_at);
    conditions.push(
      or(lt(deployments.createdAt, at), and(eq(deployments.createdAt, at), lt(deployments.id, after.id)))!,
    );
  }
  const rows = await db
    .select()
    .from(deployments)
    .where(and(...conditions))
    .orderBy(desc(deployments.createdAt), desc(deployments.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    rows: page,
    next: rows.length > limit && last ? { created_at: last.createdAt.toISOString(), id: last.id } : null,
  };
}
