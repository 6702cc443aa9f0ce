import type { BusServer } from '../../../shared/bus/bus-server';
import { catalogSubjects } from '../../../shared/bus/subjects/catalog';
import type { ModelCatalog } from './domain/model-catalog';
import { getModel } from './handlers/get-model';
import { listModels } from './handlers/list-models';

/** Wires the catalog's bus subjects to their handlers; nothing else. */
export function registerCatalogHandlers(server: BusServer, deps: { models: ModelCatalog }): void {
  server.handle(catalogSubjects.listModels, listModels(deps.models));
  server.handle(catalogSubjects.getModel, getModel(deps.models));
}
