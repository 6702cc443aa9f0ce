import { Elysia } from 'elysia';
import { ApiError } from '@shared/errors/api-error';
import { readiness } from '@shared/http/health-server';
import { Health, Readiness } from '@shared/schema/health';
import { errorResponse } from './http/error-response';
import { requestState } from './http/request-state';
import { agentsModule } from './modules/agents';
import { deploymentRunsModule } from './modules/deployment-runs';
import { deploymentsModule } from './modules/deployments';
import { environmentWorkModule } from './modules/environment-work';
import { environmentsModule } from './modules/environments';
import { filesModule } from './modules/files';
import { memoriesModule } from './modules/memories';
import { skillsModule } from './modules/skills';
import { memoryStoresModule } from './modules/memory-stores';
import { modelsModule } from './modules/models';
import { sessionEventsModule } from './modules/session-events';
import { sessionsModule } from './modules/sessions';
import { vaultsModule } from './modules/vaults';
import { OpenApiDocument, openApiDocument } from './openapi/document';
import { ReferencePageHtml, referencePage } from './openapi/reference-page';
import type { JsonObject } from './openapi/schema-components';
import { openRoute, type OpenRoute } from './routing/route';
import { json } from './routing/route-contract';
import type { GatewayDeps } from './deps';

/**
 * Elysia's own failures, translated so that nothing leaves without the envelope. Routes declare
 * no Elysia schemas (routing/route.ts validates after the guard), so Elysia never raises its
 * VALIDATION error, and no cookie is signed (INVALID_COOKIE_SIGNATURE): neither has a case here.
 */
function toApiError(code: string | number, error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  // Elysia wraps anything thrown while parsing in its own ParseError (PARSE below). The guard's
  // parse hook only leaves a marker and cannot throw, so both are a safety net, not a path.
  if (error instanceof Error && error.cause instanceof ApiError) return error.cause;
  switch (code) {
    case 'NOT_FOUND':
      return new ApiError('not_found_error', 'Not found: no such route');
    case 'PARSE':
      return new ApiError('invalid_request_error', 'body: malformed request body');
    default:
      return new ApiError('api_error', undefined, { cause: error });
  }
}

/**
 * The gateway's table: one Elysia plugin per resource (modules/<resource>/, its handlers), behind
 * the one error handler, and the open routes (health, readiness, the API's documentation). The
 * other services map bus subjects to handlers here; the gateway maps routes. The OpenAPI
 * document is read off the same routes this registers, so none is served undescribed.
 */
export function createGatewayService(deps: GatewayDeps) {
  const modules = [
    modelsModule(deps),
    agentsModule(deps),
    environmentWorkModule(deps),
    environmentsModule(deps),
    filesModule(deps),
    memoryStoresModule(deps),
    memoriesModule(deps),
    skillsModule(deps),
    vaultsModule(deps),
    deploymentsModule(deps),
    deploymentRunsModule(deps),
    sessionsModule(deps),
    sessionEventsModule(deps),
  ];
  const openRoutes: OpenRoute[] = [
    openRoute('/healthz', { reply: Health }, () => ({ status: 'ok' }) satisfies Health),
    // Public port: ready or not, never the reason (internal addresses, driver errors); that is logged.
    openRoute('/readyz', { reply: Readiness, otherReplies: { 503: json(Readiness) } }, () => readiness(deps.ready, deps.logger)),
    openRoute('/v1/openapi.json', { reply: OpenApiDocument }, () => documented().document),
    openRoute('/docs', { reply: ReferencePageHtml }, () => new Response(documented().page, { headers: { 'content-type': 'text/html; charset=utf-8' } })),
  ];
  // Built at the first request for either, once: the table does not change while the process runs.
  let documentation: { document: JsonObject; page: string } | undefined;
  const documented = () => {
    if (!documentation) {
      const routes = [...openRoutes, ...modules.flatMap((module) => module.routes)];
      const document = openApiDocument(routes, { headerPrefix: deps.config.API_HEADER_PREFIX });
      documentation = { document, page: referencePage(document) };
    }
    return documentation;
  };

  const app = new Elysia().onError({ as: 'global' }, ({ code, error, request }) => {
    const apiError = toApiError(code, error);
    const state = requestState(request);
    if (apiError.type === 'api_error') {
      deps.logger.error('request failed', { request_id: state.id, error: apiError.cause ?? apiError });
    }
    return errorResponse(apiError, state.id);
  });
  // The route template of every matched request, for its metrics and span (the guard sets the
  // same on API routes; this covers the open ones). Unmatched requests never get here.
  app.onTransform({ as: 'global' }, ({ request, route }) => {
    const state = requestState(request);
    state.operation ??= `${request.method} ${route}`;
  });
  // Before the modules: the guard's hooks are global, and apply only to routes registered after it.
  for (const { path, handle } of openRoutes) app.get(path, () => handle());
  for (const module of modules) app.use(module.plugin);
  return app;
}
