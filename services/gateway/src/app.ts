import { Elysia } from 'elysia';
import { ApiError } from '@shared/errors/api-error';
import { readiness } from '@shared/http/health-server';
import { errorResponse } from './http/error-response';
import { requestState } from './http/request-state';
import { agentsModule } from './modules/agents';
import { deploymentRunsModule } from './modules/deployment-runs';
import { deploymentsModule } from './modules/deployments';
import { environmentsModule } from './modules/environments';
import { filesModule } from './modules/files';
import { memoryStoresModule } from './modules/memory-stores';
import { modelsModule } from './modules/models';
import { sessionsModule } from './modules/sessions';
import { vaultsModule } from './modules/vaults';
import type { GatewayDeps } from './routing/gateway-deps';

/** Elysia's own failures, translated so that nothing leaves without the envelope. */
function toApiError(code: string | number, error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  // Elysia wraps what a parse hook throws (our 413) in its own ParseError.
  if (error instanceof Error && error.cause instanceof ApiError) return error.cause;
  switch (code) {
    case 'NOT_FOUND':
      return new ApiError('not_found_error', 'Not found: no such route');
    case 'PARSE':
      return new ApiError('invalid_request_error', 'body: malformed request body');
    case 'VALIDATION':
      return new ApiError('invalid_request_error', 'body: invalid request');
    case 'INVALID_COOKIE_SIGNATURE':
      return new ApiError('invalid_request_error', 'cookie: invalid signature');
    default:
      return new ApiError('api_error', undefined, { cause: error });
  }
}

export function createGatewayApp(deps: GatewayDeps) {
  return new Elysia()
    .onError({ as: 'global' }, ({ code, error, request }) => {
      const apiError = toApiError(code, error);
      const state = requestState(request);
      if (apiError.type === 'api_error') {
        deps.logger.error('request failed', { request_id: state.id, error: apiError.cause ?? apiError });
      }
      return errorResponse(apiError, state.id);
    })
    .get('/healthz', () => ({ status: 'ok' }))
    // Public port: ready or not, never the reason (internal addresses, driver errors); that is logged.
    .get('/readyz', () => readiness(deps.ready, deps.logger))
    .use(modelsModule(deps))
    .use(agentsModule(deps))
    .use(environmentsModule(deps))
    .use(filesModule(deps))
    .use(memoryStoresModule(deps))
    .use(vaultsModule(deps))
    .use(deploymentsModule(deps))
    .use(deploymentRunsModule(deps))
    .use(sessionsModule(deps));
}
export type GatewayApp = ReturnType<typeof createGatewayApp>;
