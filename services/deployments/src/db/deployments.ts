import type { PageRequest } from '@shared/db/keyset-page';
import { archivedConditions, createdAtConditions } from '@shared/db/list-filters';
import { and, eq, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { EventEnvelope } from '@shared/bus/event';
import { newEventEnvelope, recordEvent, recordEvents } from '@shared/bus/outbox';
import type { Database } from '@shared/db/connect';
import type { Executor, ReadOptions } from '@shared/db/executor';
import { findOwnedRow } from '@shared/db/find-owned-row';
import { keysetAfter, newestFirst, readPage } from '@shared/db/keyset-page';
import { ownedBy, tenantPlaceholders } from '@shared/db/owned-by';
import { preparedByShape } from '@shared/db/prepared';
import { ApiError } from '@shared/errors/api-error';
import type { StoreDeps } from '@shared/service-host/store-deps';
import type { PagePosition } from '@shared/schema/common';
import type { DeploymentListFilters } from '@shared/schema/deployment';
import { deploymentEvents } from '@shared/schema/deployment-events';
import type { Tenant } from '@shared/schema/tenant';
import type { DeploymentEvent, LockedChange } from '../domain/lifecycle';
import { presentDeploymentSnapshot } from '../domain/present';
import { DEPLOYMENT_LIST_INDEXES, deploymentSecrets, deployments, outbox, type DeploymentRow } from './schema';
import { tenantOfRow } from '../domain/row-tenant';

export type SealedSecret = { resourceIndex: number; sealed: string };

/** A deployment to store: its row, its sealed repository tokens and its `deployments.created` (`.unscheduled`). */
export interface NewDeployment {
  row: DeploymentRow;
  secrets: SealedSecret[];
  event: EventEnvelope;
}

export const newDeployment = (row: DeploymentRow, secrets: SealedSecret[]): NewDeployment => {
  const snapshot = presentDeploymentSnapshot(row);
  const event = snapshot.schedule === null ? deploymentEvents.createdUnscheduled : deploymentEvents.created;
  return { row, secrets, event: newEventEnvelope(event, tenantOfRow(row), snapshot, row.updatedAt) };
};

/**
 * New deployments, their sealed tokens and their events, in the caller's transaction: one
 * statement per table however many (creates are written in batches, see start-deployments.ts).
 */
export async function insertDeployments(tx: Executor, items: NewDeployment[]): Promise<void> {
  await tx.insert(deployments).values(items.map((i) => i.row));
  const secrets = items.flatMap((i) => i.secrets.map((s) => ({ deploymentId: i.row.id, ...s })));
  if (secrets.length > 0) await tx.insert(deploymentSecrets).values(secrets);
  await recordEvents(tx, outbox, items.map((i) => i.event));
}

/** The tenant a deployment row belongs to. */

/** The index whose leading columns are the filters' equalities, most selective first. */
function listIndexFor(filters: Pick<PageFilters, 'agent_id' | 'status' | 'include_archived'>): string {
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
  { filters, limit, after }: PageRequest<DeploymentListFilters>,
  present: (row: DeploymentRow) => T,
): Promise<{ data: T[]; next: PagePosition | null }> {
  return readPage(
    (from, count) =>
      pageQuery(db, pageShape(filters, from !== null), {
        organization_id: tenant.organization_id,
        workspace_id: tenant.workspace_id,
        status: filters.status,
        agent_id: filters.agent_id,
        created_at_gte: dateOf(filters.created_at_gte),
        created_at_lte: dateOf(filters.created_at_lte),
        after_created_at: dateOf(from?.created_at),
        after_id: from?.id,
        count,
      }) as Promise<DeploymentRow[]>,
    after,
    limit,
    present,
  );
}

const dateOf = (at: string | undefined) => (at === undefined ? undefined : new Date(at));

/**
 * The list's query for one shape of request (which filters are given, first page or not), built
 * once per process and run with the request's values: building the query text anew for every
 * page was a fifth of a list's CPU in this service. The shapes are few (the filters a list takes).
 */
const pageQuery = preparedByShape((db, shape: string) => prepareDeploymentPage(db, JSON.parse(shape) as PageShape));

interface PageShape {
  status: boolean;
  agent_id: boolean;
  include_archived: boolean;
  created_at_gte: boolean;
  created_at_lte: boolean;
  continues: boolean;
}

const pageShape = (filters: DeploymentListFilters, continues: boolean): string =>
  JSON.stringify({
    status: filters.status !== undefined,
    agent_id: filters.agent_id !== undefined,
    include_archived: filters.include_archived,
    created_at_gte: filters.created_at_gte !== undefined,
    created_at_lte: filters.created_at_lte !== undefined,
    continues,
  } satisfies PageShape);

function prepareDeploymentPage(db: Executor, shape: PageShape) {
  const p = (name: string) => sql.placeholder(name);
  const given = (key: 'status' | 'agent_id' | 'created_at_gte' | 'created_at_lte') => (shape[key] ? p(key) : undefined);
  return deploymentPageQuery(
    db,
    tenantPlaceholders,
    {
      include_archived: shape.include_archived,
      status: given('status'),
      agent_id: given('agent_id'),
      created_at_gte: given('created_at_gte'),
      created_at_lte: given('created_at_lte'),
    },
    sql.placeholder('count'),
    shape.continues ? { created_at: p('after_created_at'), id: p('after_id') } : null,
  ).prepare();
}

/** One chunk's query: up to `count` deployments beyond `after`, unexecuted (the benchmark EXPLAINs it). */
export function deploymentPageQuery(
  db: Executor,
  tenant: Parameters<typeof ownedBy>[1],
  filters: PageFilters,
  count: number | Placeholder,
  after: Parameters<typeof keysetAfter>[1],
) {
  const conditions: SQL[] = [ownedBy(deployments, tenant), ...archivedConditions(deployments.archivedAt, filters.include_archived)];
  if (filters.status !== undefined) conditions.push(eq(deployments.status, filters.status));
  if (filters.agent_id !== undefined) conditions.push(eq(deployments.agentId, filters.agent_id));
  conditions.push(...createdAtConditions(deployments.createdAt, filters));
  const position = keysetAfter(deployments, after);
  if (position) conditions.push(position);
  return db
    .select()
    .from(deployments, { forceIndex: listIndexFor(filters) })
    .where(and(...conditions))
    .orderBy(...newestFirst(deployments))
    .limit(count as number);
}

/** A list's filters, each a value or (for a prepared query) the placeholder that stands for it. */
type PageFilters = { include_archived: boolean } & {
  [K in Exclude<keyof DeploymentListFilters, 'include_archived'>]?: DeploymentListFilters[K] | Placeholder;
};

/** One deployment of the tenant; `lock` takes the row lock for the rest of the transaction. */
export const findDeployment = (db: Executor, tenant: Tenant, id: string, options?: ReadOptions): Promise<DeploymentRow | undefined> =>
  findOwnedRow(db, deployments, tenant, id, options);

/**
 * Writes `next` over the stored row, only if that is still at `previous.revision` (`next`
 * carries the revision after it), and records the change's event: false, writing nothing, when
 * the row moved. An update whose checks ran outside the transaction relies on this optimistic
 * lock; a change under the row lock cannot lose it (applyLockedChange). `secrets`:
 * a replaced `resources` list brings its own tokens, the old ones go.
 */
export async function updateDeployment(
  tx: Executor,
  previous: DeploymentRow,
  next: DeploymentRow,
  event: DeploymentEvent,
  secrets?: SealedSecret[],
): Promise<boolean> {
  // A row read back carries `seq`, which its type leaves out: it is never written again.
  const { id: _id, organizationId: _o, workspaceId: _w, createdAt: _c, seq: _s, ...columns } = next as DeploymentRow & { seq?: number };
  const [result] = await tx
    .update(deployments)
    .set(columns)
    .where(and(eq(deployments.id, previous.id), eq(deployments.revision, previous.revision)));
  if (result.affectedRows !== 1) return false;
  if (secrets) {
    await tx.delete(deploymentSecrets).where(eq(deploymentSecrets.deploymentId, previous.id));
    if (secrets.length > 0) {
      await tx.insert(deploymentSecrets).values(secrets.map((s) => ({ deploymentId: previous.id, ...s })));
    }
  }
  await recordEvent(tx, outbox, event, tenantOfRow(next), presentDeploymentSnapshot(next), next.updatedAt);
  return true;
}

/**
 * Applies a change to a row read under its lock in this transaction: the next revision, `now`
 * as updated_at, the change's event. The row cannot have moved; if it did, nothing is written.
 */
export async function applyLockedChange(tx: Executor, current: DeploymentRow, change: LockedChange, now: Date): Promise<DeploymentRow> {
  const next = { ...change.row, revision: current.revision + 1, updatedAt: now };
  if (!(await updateDeployment(tx, current, next, change.event))) {
    // Never write an event for a change that did not happen.
    throw new ApiError('api_error', undefined, { cause: new Error(`deployment ${current.id} changed under its row lock`) });
  }
  return next;
}

/**
 * The step pause, unpause and archive share: reads the deployment under its row lock and
 * applies `change` (domain/lifecycle.ts), which returns the changed row and its event, written
 * with the next revision in the same transaction, or null to leave it as it is (an idempotent
 * repeat; no revision, no event); wakes the relay after a commit that recorded the event. These
 * need nothing from other services, so they lock rather than retry like an update does.
 * Returns the deployment as it now is and the time of the change (its presenter's `now`);
 * undefined when the tenant has no such deployment.
 */
export async function changeDeploymentUnderLock(
  deps: StoreDeps,
  tenant: Tenant,
  id: string,
  change: (row: DeploymentRow, now: Date) => LockedChange | null,
): Promise<{ row: DeploymentRow; now: Date } | undefined> {
  const now = deps.clock.now();
  const result = await deps.db.transaction(async (tx) => {
    const current = await findDeployment(tx, tenant, id, { lock: true });
    if (!current) return undefined;
    const changed = change(current, now);
    if (!changed) return { row: current, changed: false };
    return { row: await applyLockedChange(tx, current, changed, now), changed: true };
  });
  if (result?.changed) deps.eventsRecorded();
  return result && { row: result.row, now };
}

/** Bookkeeping of a successful scheduled run; not a change of the deployment (no revision bump). */
export async function setLastRunAt(tx: Executor, id: string, at: Date): Promise<void> {
  await tx.update(deployments).set({ lastRunAt: at }).where(eq(deployments.id, id));
}
