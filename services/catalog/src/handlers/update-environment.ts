import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import { found } from '@shared/errors/api-error';
import type { environmentSubjects } from '@shared/bus/subjects/catalog';
import { findEnvironment, updateEnvironment as updateEnvironmentRow } from '../db/environments';
import { applyEnvironmentUpdate } from '../domain/environment';
import { environmentNotFound } from '../domain/not-found';
import { presentEnvironment } from '../domain/present';
import type { CatalogDeps } from '../deps';

type S = typeof environmentSubjects.update;
/** Applied under the row lock, so concurrent updates of one environment do not lose each other's changes. */
export const updateEnvironment =
  (deps: CatalogDeps): Handler<S> =>
  async ({ environment_id: id, update: patch }, ctx) => {
    const tenant = tenantOf(ctx);
    const row = await deps.db.transaction(async (tx) => {
      const current = found(await findEnvironment(tx, tenant, id, { lock: true }), () => environmentNotFound(id));
      const next = applyEnvironmentUpdate(current, patch, deps.clock.now());
      await updateEnvironmentRow(tx, id, next);
      return next;
    });
    return presentEnvironment(row);
  };
