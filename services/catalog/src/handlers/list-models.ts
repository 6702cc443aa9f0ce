import type { Handler } from '@shared/bus/bus-server';
import type { modelSubjects } from '@shared/bus/subjects/catalog';
import type { CatalogDeps } from '../deps';

type S = typeof modelSubjects.list;
export const listModels =
  (deps: CatalogDeps): Handler<S> =>
  async (query) =>
    deps.models.list(query);
