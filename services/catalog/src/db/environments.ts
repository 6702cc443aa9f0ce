import { and, eq } from 'drizzle-orm';
import type { PagePosition } from '@shared/schema/common';
import type { CloudConfig, Environment, EnvironmentListFilters } from '@shared/schema/environment';
import { keysetAfter, newestFirst, readPage } from '@shared/db/keyset-page';
import { listFilters } from './list-filters';
import { environments } from './schema';
import { ownedBy, type Executor, type TenantScope } from './scope';

export type EnvironmentRow = typeof environments.$inferSelect;

export function presentEnvironment(row: EnvironmentRow): Environment {
  return {
    type: 'environment',
    id: row.id,
    name: row.name,
    description: row.description,
    config: row.config,
    metadata: row.metadata,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    archived_at: row.archivedAt?.toISOString() ?? null,
  };
}

export async function insertEnvironment(
  tx: Executor,
  input: {
    id: string;
    tenant: TenantScope;
    name: string;
    description: string | null;
    config: CloudConfig;
    metadata: Record<string, string>;
    now: Date;
  },
): Promise<EnvironmentRow> {
  const row: EnvironmentRow = {
    id: input.id,
    organizationId: input.tenant.organization_id,
    workspaceId: input.tenant.workspace_id,
    name: input.name,
    description: input.description,
    config: input.config,
    metadata: input.metadata,
    createdAt: input.now,
    updatedAt: input.now,
    archivedAt: null,
  };
  await tx.insert(environments).values(row);
  return row;
}

/** With `lock`, the row stays locked until the transaction ends. */
export async function findEnvironment(
  db: Executor,
  tenant: TenantScope,
  id: string,
  options: { lock?: boolean } = {},
): Promise<EnvironmentRow | undefined> {
  const query = db
    .select()
    .from(environments)
    .where(and(eq(environments.id, id), ownedBy(environments, tenant)));
  const [row] = options.lock ? await query.for('update') : await query;
  return row;
}

export async function updateEnvironmentRow(
  tx: Executor,
  id: string,
  changes: Partial<Pick<EnvironmentRow, 'name' | 'description' | 'config' | 'metadata' | 'updatedAt' | 'archivedAt'>>,
): Promise<void> {
  await tx.update(environments).set(changes).where(eq(environments.id, id));
}

/** Deletion is final: the row goes, and the id resolves as not found from then on. */
export async function deleteEnvironmentRow(tx: Executor, id: string): Promise<void> {
  await tx.delete(environments).where(eq(environments.id, id));
}

export async function listEnvironments(
  db: Executor,
  tenant: TenantScope,
  request: { filters: EnvironmentListFilters; limit: number; after: PagePosition | null },
) {
  const readChunk = (from: PagePosition | null, count: number) =>
    db
      .select()
      .from(environments)
      .where(and(ownedBy(environments, tenant), ...listFilters(environments, request.filters), keysetAfter(environments, from)))
      .orderBy(...newestFirst(environments))
      .limit(count);
  return readPage(readChunk, request.after, request.limit, presentEnvironment);
}
