import type { TSchema } from '@sinclair/typebox';
import type { Subject } from '@shared/bus/subject';
import type { GatewayDeps } from '../deps';
import { route, type Route } from './route';

/** The subjects behind one resource's item routes: each answers with what the route replies. */
export interface ItemSubjects {
  get: Subject;
  update: Subject;
  archive: Subject;
  delete: Subject;
}

/**
 * The four routes every archivable resource's item has, each handing its call to the owning
 * service's subject of the same verb: `GET <path>`, `POST <path>` (the update, sent as the path's
 * ids with `update: <body>`), `POST <path>/archive` and `DELETE <path>`. The path's ids are the
 * request of get, archive and delete as they stand (the subjects' id requests are those fields).
 */
export function itemRoutes<const Path extends string>(deps: GatewayDeps, path: Path, subjects: ItemSubjects, updateBody: TSchema): Route[] {
  // The path's parameters are the subjects' id request by construction (the same field names);
  // TypeScript cannot relate a path string to a schema, hence the casts.
  const forward = (subject: Subject) => ({ call, params }: { call: Parameters<GatewayDeps['bus']['call']>[1]; params: object }) =>
    deps.bus.call(subject, call, params as never);
  return [
    route.get(path, { reply: subjects.get.reply }, forward(subjects.get)),
    route.post(path, { body: updateBody, reply: subjects.update.reply }, ({ call, params, body }) =>
      deps.bus.call(subjects.update, call, { ...params, update: body } as never),
    ),
    route.post(`${path}/archive`, { reply: subjects.archive.reply }, forward(subjects.archive)),
    route.delete(path, { reply: subjects.delete.reply }, forward(subjects.delete)),
  ];
}
