import { Type } from '@sinclair/typebox';
import { Elysia } from 'elysia';
import { ApiError } from '../../../../../shared/errors/api-error';
import { jsonBody } from '../../http/raw-body';
import type { GatewayDeps } from '../../routing/gateway-deps';
import { createGuard } from '../../routing/guard';
import { servePage } from '../../routing/pagination';
import { deploymentListRoute } from './model';

/** /v1/deployments: served by the deployments service. */
export const deploymentsModule = (deps: GatewayDeps) =>
  new Elysia({ name: 'module-deployments' })
    .use(createGuard(deps))
    .get('/v1/deployments', ({ call, url }) =>
      servePage(deploymentListRoute, { bus: deps.bus, cursorKey: deps.config.cursorKey }, call, url),
    )
    .post('/v1/deployments', ({ body }) => {
      jsonBody(Type.Object({}, { additionalProperties: true }), body);
      throw new ApiError('api_error', 'creating deployments is not implemented yet', { status: 501 });
    });
