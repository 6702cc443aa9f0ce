import { Elysia } from 'elysia';
import { modelSubjects } from '@shared/bus/subjects/catalog';
import { ModelListQuery } from '@shared/schema/model';
import { parseQuery } from '../../http/query';
import type { GatewayDeps } from '../../routing/gateway-deps';
import { createGuard } from '../../routing/guard';

/** GET /v1/models, /v1/models/{id}: the shipped model catalog, served by the catalog service. */
export const modelsModule = (deps: GatewayDeps) =>
  new Elysia({ name: 'module-models' })
    .use(createGuard(deps))
    .get('/v1/models', ({ call, url }) => deps.bus.call(modelSubjects.list, call, parseQuery(url, ModelListQuery)))
    .get('/v1/models/:model_id', ({ call, params }) =>
      deps.bus.call(modelSubjects.get, call, { model_id: params.model_id }),
    );
