import type { modelSubjects } from '@shared/bus/subjects/catalog';
import type { Handler } from '@shared/bus/bus-server';
import type { ModelCatalog } from '../domain/model-catalog';

type S = typeof modelSubjects.get;
export const getModel =
  (catalog: ModelCatalog): Handler<S> =>
  async ({ model_id: id }) =>
    catalog.get(id);
