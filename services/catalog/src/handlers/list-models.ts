import type { modelSubjects } from '@shared/bus/subjects/catalog';
import type { Handler } from '@shared/bus/bus-server';
import type { ModelCatalog } from '../domain/model-catalog';

type S = typeof modelSubjects.list;
export const listModels =
  (catalog: ModelCatalog): Handler<S> =>
  async (query) =>
    catalog.list(query);
