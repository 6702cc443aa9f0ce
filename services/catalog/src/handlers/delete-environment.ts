import type { Handler } from '@shared/bus/bus-server';
import { recordEvent } from '@shared/bus/outbox';
import type { environmentSubjects } from '@shared/bus/subjects/catalog';
import { notFound } from '@shared/errors/api-error';
import { environmentEvents } from '@shared/schema/environment';
import { requireTenant, type CatalogDeps } from '../catalog-deps';
import { deleteEnvironmentRow, findEnvironment } from '../db/environments';
import { outbox } from '../db/schema';

type S = typeof environmentSubjects.delete;
export const deleteEnvironment =
  (deps: CatalogDeps): Handler<S> =>
  async ({ environment_id: id }, ctx) => {
    const tenant = requireTenant(ctx);
    await deps.db.transaction(async (tx) => {
      const current = await findEnvironment(tx, tenant, id, { lock: true });
      if (!current) throw notFound(`environment ${id} not found`);
      await deleteEnvironmentRow(tx, id);
      await recordEvent(tx, outbox, environmentEvents.deleted, tenant, { environment_id: id }, deps.clock.now());
    });
    deps.eventsRecorded();
    return { type: 'environment_deleted' as const, id };
  };
