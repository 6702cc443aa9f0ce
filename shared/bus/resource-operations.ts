import type { TSchema } from '@sinclair/typebox';

/**
 * A tenant resource's lifecycle, as its schemas give it: created from a body, named by an id
 * request (get, archive, delete), listed a page at a time, updated by an update request; every
 * verb but list and delete answers the resource itself. `deleted`, what a delete answers, only
 * for a resource that can be deleted.
 */
export interface ResourceSchemas {
  readonly resource: TSchema;
  readonly id: TSchema;
  readonly create: TSchema;
  readonly list: readonly [request: TSchema, reply: TSchema];
  readonly update: TSchema;
  readonly deleted?: TSchema;
}

type ResourceOperations<S extends ResourceSchemas> = {
  create: readonly [S['create'], S['resource']];
  get: readonly [S['id'], S['resource']];
  list: S['list'];
  update: readonly [S['update'], S['resource']];
  archive: readonly [S['id'], S['resource']];
} & (S extends { deleted: infer Deleted extends TSchema } ? { delete: readonly [S['id'], Deleted] } : unknown);

/**
 * The standard operations of a resource (create, get, list, update, archive, and delete when it
 * has `deleted`), in that order, for defineSubjects: `{ ...resourceOperations(schemas), extra: ... }`.
 * All of them are the gateway's. A verb that differs (another request, more callers) is given
 * again after the spread: it replaces the standard one in place, so the order, which the
 * generated NATS permissions follow, stays the same.
 */
export function resourceOperations<const S extends ResourceSchemas>(schemas: S): ResourceOperations<S> {
  const { resource, id, deleted } = schemas;
  const lifecycle = {
    create: [schemas.create, resource],
    get: [id, resource],
    list: schemas.list,
    update: [schemas.update, resource],
    archive: [id, resource],
  };
  return (deleted === undefined ? lifecycle : { ...lifecycle, delete: [id, deleted] }) as ResourceOperations<S>;
}
