import type { Handler } from '@shared/bus/bus-server';
import { recordEvent } from '@shared/bus/outbox';
import type { environmentSubjects } from '@shared/bus/subjects/catalog';
import { notFound } from '@shared/errors/api-error';
import { environmentEvents } from '@shared/schema/environment';
import { requireTenant, type CatalogDeps } from '../catalog-deps';
import { findEnvironment, presentEnvironment, updateEnvironmentRow } from '../db/environments';
import { outbox } from '../db/schema';

type S = typeof environmentSubjects.archive;
/** Idempotent: archiving an archived environment changes nothing and announces nothing. */
export const archiveEnvironment =
  (deps: CatalogDeps): Handler<S> =>
  async ({ environment_id: id }, ctx) => {
    const tenant = requireTenant(ctx);
    const { row, changed } = await deps.db.transaction(async (tx) => {
      const current = await findEnvironment(tx, tenant, id, { lock: true });
      if (!current) throw notFound(`environment ${id} not found`);
      if (current.archivedAt) return { row: current, changed: false };
      const now = deps.clock.now();
      await updateEnvironmentRow(tx, id, { archivedAt: now, updatedAt: now });
      await recordEvent(tx, outbox, environmentEvents.archived, tenant, { environment_id: id }, now);
      return { row: { ...current, archivedAt: now, updatedAt: now }, changed: true };
    });
    if (changed) deps.eventsRecorded();
    return presentEnvironment(row);
  };
