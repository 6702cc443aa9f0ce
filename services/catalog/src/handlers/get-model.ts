import type { Handler } from '@shared/bus/bus-server';
import type { modelSubjects } from '@shared/bus/subjects/catalog';
import type { CatalogDeps } from '../deps';

type S = typeof modelSubjects.get;
export const getModel =
  (deps: CatalogDeps): Handler<S> =>
  async ({ model_id: id }) =>
    deps.models.get(id);
