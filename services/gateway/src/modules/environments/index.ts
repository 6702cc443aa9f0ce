import { Type } from '@sinclair/typebox';
import { environmentSubjects } from '@shared/bus/subjects/catalog';
import { QueryBoolean } from '@shared/schema/common';
import { EnvironmentCreateBody, EnvironmentUpdateBody } from '@shared/schema/environment';
import { pagedQuery, pageRoute, servePage } from '../../routing/pagination';
import { resourceModule } from '../../routing/resource-module';
import { itemRoutes } from '../../routing/item-routes';
import { route } from '../../routing/route';
import type { GatewayDeps } from '../../deps';

export const environmentListRoute = pageRoute({
  endpoint: 'environments.list',
  query: pagedQuery({ include_archived: Type.Optional(QueryBoolean) }),
  subject: environmentSubjects.list,
  toFilters: (q) => ({ include_archived: q.include_archived === 'true' }),
});

/** /v1/environments: container configurations sessions run in, served by the catalog service. */
export const environmentsModule = (deps: GatewayDeps) =>
  resourceModule('environments', deps, [
    route.post('/v1/environments', { body: EnvironmentCreateBody, reply: environmentSubjects.create.reply }, ({ call, body }) =>
      deps.bus.call(environmentSubjects.create, call, body),
    ),
    route.list('/v1/environments', servePage(environmentListRoute, deps)),
    ...itemRoutes(deps, '/v1/environments/:environment_id', environmentSubjects, EnvironmentUpdateBody),
  ]);
