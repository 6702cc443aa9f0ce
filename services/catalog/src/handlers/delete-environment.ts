import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { environmentSubjects } from '@shared/bus/subjects/catalog';
import { environmentEvents } from '@shared/schema/environment';
import { deleteOwnedRow } from '../db/archive-and-delete';
import { deleteEnvironment as deleteEnvironmentRows } from '../db/environments';
import { environments } from '../db/schema';
import { environmentNotFound } from '../domain/not-found';
import type { CatalogDeps } from '../deps';

type S = typeof environmentSubjects.delete;
export const deleteEnvironment =
  (deps: CatalogDeps): Handler<S> =>
  async ({ environment_id: id }, ctx) => {
    const announce = { event: environmentEvents.deleted, data: { environment_id: id } };
    const deleted = await deleteOwnedRow(deps, environments, tenantOf(ctx), id, deleteEnvironmentRows, announce);
    if (!deleted) throw environmentNotFound(id);
    return { type: 'environment_deleted' as const, id };
  };
