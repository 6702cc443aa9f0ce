import type { Static, TSchema } from '@sinclair/typebox';
import type { EventType } from '@shared/bus/event';
import { tenantOf, type CallContext } from '@shared/bus/call-context';
import { newRowColumns, type NewRowColumns } from '@shared/db/columns';
import type { Executor } from '@shared/db/executor';
import { findOwnedRow, type OwnedTable } from '@shared/db/find-owned-row';
import { found, type ApiError } from '@shared/errors/api-error';
import { newId, type IdKind } from '@shared/ids/ids';
import { archiveOwnedRow, deleteOwnedRow } from '../db/archive-and-delete';
import type { CatalogDeps } from '../deps';
import { environmentWrites } from '../db/environments';
import { deleteFile } from '../db/files';
import { memoryStoreWrites } from '../db/memory-stores';
import { environments, files, memoryStores } from '../db/schema';
import { environmentNotFound, fileNotFound, memoryStoreNotFound } from '../domain/not-found';
import { presentEnvironment, presentFile, presentMemoryStore } from '../domain/present';
import { environmentEvents, type Environment } from '@shared/schema/environment';
import { fileEvents, type FileMetadata } from '@shared/schema/file';
import { memoryStoreEvents, type MemoryStore } from '@shared/schema/memory-store';

/**
 * The use cases environments, memory stores and files share, once each: create, update, archive
 * and delete of a tenant's row, with the 404 when the tenant has no such row. A resource's own
 * rules (what a new row holds, what an update changes) stay in its domain file and are passed in;
 * each handler file names the resource and its rule.
 */

/** A resource as the delete sees it (files: uploaded, never edited). */
export interface OwnedResource<T extends OwnedTable, Shown> {
  table: T;
  /** Its request's id field, which is also its events' payload. */
  idField: string;
  /** `<kind>_deleted`: the type of the answer to a delete. */
  deletedType: `${string}_deleted`;
  notFound: (id: string) => ApiError;
  present: (row: T['$inferSelect']) => Shown;
  /** Removes the row and whatever hangs off it. */
  remove: (tx: Executor, id: string) => Promise<void>;
  events: { deleted: EventType<TSchema> };
}

/** A resource created, updated and archived through the API (environments, memory stores). */
export interface EditableResource<T extends OwnedTable, Shown> extends OwnedResource<T, Shown> {
  idKind: IdKind;
  insert: (db: Executor, row: T['$inferSelect']) => Promise<void>;
  /** Writes an updated row (under its lock). */
  write: (tx: Executor, id: string, row: T['$inferSelect']) => Promise<void>;
  events: { archived: EventType<TSchema>; deleted: EventType<TSchema> };
}

/** A new row from the request (the resource's rule) with a fresh id, in the caller's tenant. */
export async function createOwned<T extends OwnedTable, Shown>(
  deps: CatalogDeps,
  resource: EditableResource<T, Shown>,
  ctx: CallContext,
  newRow: (columns: NewRowColumns) => T['$inferSelect'],
): Promise<Shown> {
  const row = newRow(newRowColumns(newId(resource.idKind), tenantOf(ctx), deps.clock.now()));
  await resource.insert(deps.db, row);
  return resource.present(row);
}

/** Applied under the row lock, so concurrent updates of one row do not lose each other's changes. */
export async function updateOwned<T extends OwnedTable, Shown>(
  deps: CatalogDeps,
  resource: EditableResource<T, Shown>,
  ctx: CallContext,
  id: string,
  apply: (current: T['$inferSelect'], now: Date) => T['$inferSelect'],
): Promise<Shown> {
  const tenant = tenantOf(ctx);
  const row = await deps.db.transaction(async (tx) => {
    const current = found(await findOwnedRow(tx, resource.table, tenant, id, { lock: true }), () => resource.notFound(id));
    const next = apply(current, deps.clock.now());
    await resource.write(tx, id, next);
    return next;
  });
  return resource.present(row);
}

/** Idempotent: archiving an archived row changes nothing and announces nothing. */
export async function archiveOwned<T extends OwnedTable & Parameters<typeof archiveOwnedRow>[1], Shown>(
  deps: CatalogDeps,
  resource: EditableResource<T, Shown>,
  ctx: CallContext,
  id: string,
): Promise<Shown> {
  const announce = { event: resource.events.archived, data: eventData(resource, id) };
  return resource.present(found(await archiveOwnedRow(deps, resource.table, tenantOf(ctx), id, announce), () => resource.notFound(id)));
}

/** For good: the row and what hangs off it go, and the deletion is announced. */
export async function deleteOwned<T extends OwnedTable, Shown, D extends `${string}_deleted`>(
  deps: CatalogDeps,
  resource: OwnedResource<T, Shown> & { deletedType: D },
  ctx: CallContext,
  id: string,
): Promise<{ type: D; id: string }> {
  const announce = { event: resource.events.deleted, data: eventData(resource, id) };
  const deleted = await deleteOwnedRow(deps, resource.table, tenantOf(ctx), id, resource.remove, announce);
  if (!deleted) throw resource.notFound(id);
  return { type: resource.deletedType as D, id };
}

/** A catalog event's payload is the resource's id under its request's id field. */
const eventData = (resource: OwnedResource<OwnedTable, unknown>, id: string) =>
  ({ [resource.idField]: id }) as Static<TSchema>;

/** The catalog's resources that take these use cases. */

export const environmentResource = {
  table: environments,
  idKind: 'environment',
  idField: 'environment_id',
  deletedType: 'environment_deleted',
  notFound: environmentNotFound,
  present: presentEnvironment,
  insert: environmentWrites.insert,
  write: environmentWrites.update,
  remove: environmentWrites.remove,
  events: environmentEvents,
} as const satisfies EditableResource<typeof environments, Environment>;

export const memoryStoreResource = {
  table: memoryStores,
  idKind: 'memoryStore',
  idField: 'memory_store_id',
  deletedType: 'memory_store_deleted',
  notFound: memoryStoreNotFound,
  present: presentMemoryStore,
  insert: memoryStoreWrites.insert,
  write: memoryStoreWrites.update,
  remove: memoryStoreWrites.remove,
  events: memoryStoreEvents,
} as const satisfies EditableResource<typeof memoryStores, MemoryStore>;

export const fileResource = {
  table: files,
  idField: 'file_id',
  deletedType: 'file_deleted',
  notFound: fileNotFound,
  present: presentFile,
  remove: deleteFile,
  events: fileEvents,
} as const satisfies OwnedResource<typeof files, FileMetadata>;
