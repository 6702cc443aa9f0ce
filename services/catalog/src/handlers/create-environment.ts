import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { environmentSubjects } from '@shared/bus/subjects/catalog';
import { newId } from '@shared/ids/ids';
import { insertEnvironment } from '../db/environments';
import { newEnvironment } from '../domain/environment';
import { newRowColumns } from '@shared/db/columns';
import { presentEnvironment } from '../domain/present';
import type { CatalogDeps } from '../deps';

type S = typeof environmentSubjects.create;
export const createEnvironment =
  (deps: CatalogDeps): Handler<S> =>
  async (body, ctx) => {
    const row = newEnvironment(body, newRowColumns(newId('environment'), tenantOf(ctx), deps.clock.now()));
    await insertEnvironment(deps.db, row);
    return presentEnvironment(row);
  };
