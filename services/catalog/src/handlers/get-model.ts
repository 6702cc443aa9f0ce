import type { catalogSubjects } from '../../../../shared/bus/subjects/catalog';
import type { Handler } from '../../../../shared/bus/bus-server';
import type { ModelCatalog } from '../domain/model-catalog';

type S = typeof catalogSubjects.getModel;
export const getModel =
  (catalog: ModelCatalog): Handler<S['request'], S['reply']> =>
  async ({ id }) =>
    catalog.get(id);
