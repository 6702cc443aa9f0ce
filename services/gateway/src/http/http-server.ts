import type { Server } from 'bun';
import { ApiError } from '../../../../shared/errors/api-error';
import type { Logger } from '../../../../shared/log/logger';
import { errorResponse } from './error-response';
import { beginRequest } from './request-state';

export interface HttpServerOptions {
  port: number;
  /** Listening address (the gateway's HOST setting); every interface when unset. */
  hostname?: string;
  /** Upper bound Bun enforces itself; the gateway's own limits (JSON, uploads) are lower. */
  maxRequestBodySize: number;
  /** Total size of the request's header lines beyond which the answer is 431. */
  maxHeaderBytes: number;
  logger: Logger;
}

function headerBytes(headers: Headers): number {
  let total = 0;
  headers.forEach((value, name) => {
    total += name.length + value.length + 4;
  });
  return total;
}

/**
 * The outermost layer: assigns the request id, stamps the `request-id` header on every response
 * (including Elysia's own failures), logs one line per request, and refuses new work once
 * shutdown begins while letting in-flight requests finish.
 */
export function startHttpServer(handle: (request: Request) => Promise<Response>, options: HttpServerOptions) {
  let inFlight = 0;
  let draining = false;
  let idle: (() => void) | undefined;

  const server: Server<unknown> = Bun.serve({
    port: options.port,
    hostname: options.hostname ?? '0.0.0.0',
    maxRequestBodySize: options.maxRequestBodySize,
    fetch: async (request) => {
      const state = beginRequest(request);
      if (draining) return errorResponse(new ApiError('overloaded_error', 'The gateway is shutting down'), state.id);
      if (headerBytes(request.headers) > options.maxHeaderBytes) {
        const message = `request headers are larger than the ${options.maxHeaderBytes}-byte limit`;
        return errorResponse(new ApiError('invalid_request_error', message, { status: 431 }), state.id);
      }
      const started = performance.now();
      inFlight++;
      let response: Response;
      try {
        response = await handle(request);
      } catch (err) {
        response = errorResponse(new ApiError('api_error', undefined, { cause: err }), state.id);
      } finally {
        inFlight--;
        if (draining && inFlight === 0) idle?.();
      }
      response.headers.set('request-id', state.id);
      const url = new URL(request.url);
      if (url.pathname !== '/healthz' && url.pathname !== '/readyz') {
        options.logger.info('http request', {
          request_id: state.id,
          method: request.method,
          path: url.pathname,
          operation: state.operation,
          organization_id: state.tenant?.organization_id,
          workspace_id: state.tenant?.workspace_id,
          status: response.status,
          duration_ms: Math.round((performance.now() - started) * 100) / 100,
        });
      }
      return response;
    },
    error: () => new Response(JSON.stringify({ type: 'error', error: { type: 'api_error', message: 'Internal server error' }, request_id: null }), { status: 500, headers: { 'content-type': 'application/json' } }),
  });

  return {
    server,
    port: server.port,
    /** Stops accepting, then resolves when every in-flight request has answered. */
    async drain(): Promise<void> {
      draining = true;
      if (inFlight > 0) await new Promise<void>((resolve) => (idle = resolve));
      server.stop();
    },
  };
}
