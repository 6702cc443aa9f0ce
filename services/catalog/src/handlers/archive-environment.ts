import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import { found } from '@shared/errors/api-error';
import type { environmentSubjects } from '@shared/bus/subjects/catalog';
import { environmentEvents } from '@shared/schema/environment';
import { archiveOwnedRow } from '../db/archive-and-delete';
import { environments } from '../db/schema';
import { environmentNotFound } from '../domain/not-found';
import { presentEnvironment } from '../domain/present';
import type { CatalogDeps } from '../deps';

type S = typeof environmentSubjects.archive;
/** Idempotent: archiving an archived environment changes nothing and announces nothing. */
export const archiveEnvironment =
  (deps: CatalogDeps): Handler<S> =>
  async ({ environment_id: id }, ctx) => {
    const announce = { event: environmentEvents.archived, data: { environment_id: id } };
    return presentEnvironment(found(await archiveOwnedRow(deps, environments, tenantOf(ctx), id, announce), () => environmentNotFound(id)));
  };
