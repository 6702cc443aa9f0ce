import { Type } from '@sinclair/typebox';
import { modelSubjects } from '@shared/bus/subjects/catalog';
import { ModelListQuery, type ModelListQuery as ModelListQueryValue } from '@shared/schema/model';
import { validate } from '@shared/validation/validate';
import { parseQuery } from '../../http/query';
import { resourceModule } from '../../routing/resource-module';
import { route } from '../../routing/route';
import type { GatewayDeps } from '../../deps';

/** Every parameter of `ModelListParams` but `lifecycle`, an array (see readModelListQuery). */
const ScalarModelListQuery = Type.Omit(ModelListQuery, ['lifecycle'], { additionalProperties: false });

/**
 * `lifecycle` is an array: the SDK writes `lifecycle[]=active&lifecycle[]=retired` (qs brackets);
 * a repeated plain `lifecycle=` is read the same way. The values are then checked with the rest.
 */
function readModelListQuery(url: URL): ModelListQueryValue {
  const rest = new URL(url);
  const lifecycle = ['lifecycle[]', 'lifecycle'].flatMap((name) => {
    const values = url.searchParams.getAll(name);
    rest.searchParams.delete(name);
    return values;
  });
  const query = { ...parseQuery(rest, ScalarModelListQuery), ...(lifecycle.length > 0 ? { lifecycle } : {}) };
  return validate(ModelListQuery, query);
}

/** GET /v1/models, /v1/models/{id}: the shipped model catalog, served by the catalog service. */
export const modelsModule = (deps: GatewayDeps) =>
  resourceModule('models', deps, [
    route.list('/v1/models', {
      query: ModelListQuery,
      reply: modelSubjects.list.reply,
      serve: ({ call, url }) => deps.bus.call(modelSubjects.list, call, readModelListQuery(url)),
    }),
    route.get('/v1/models/:model_id', { reply: modelSubjects.get.reply }, ({ call, params }) => deps.bus.call(modelSubjects.get, call, params)),
  ]);
