import { modelSubjects } from '@shared/bus/subjects/catalog';
import { ModelListQuery } from '@shared/schema/model';
import { resourceModule } from '../../routing/resource-module';
import { route } from '../../routing/route';
import type { GatewayDeps } from '../../service';

/** GET /v1/models, /v1/models/{id}: the shipped model catalog, served by the catalog service. */
export const modelsModule = (deps: GatewayDeps) =>
  resourceModule('models', deps, [
    route.get('/v1/models', { query: ModelListQuery }, ({ call, query }) => deps.bus.call(modelSubjects.list, call, query)),
    route.get('/v1/models/:model_id', {}, ({ call, params }) => deps.bus.call(modelSubjects.get, call, params)),
  ]);
