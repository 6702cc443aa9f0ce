import type { Server } from 'bun';
import { maxHeaderSize } from 'node:http';
import { ApiError } from '../../../../shared/errors/api-error';
import type { Logger } from '../../../../shared/log/logger';
import { errorResponse } from './error-response';
import { beginRequest } from './request-state';

export interface HttpServerOptions {
  port: number;
  /** Listening address (the gateway's HOST setting); every interface when unset. */
  hostname?: string;
  /**
   * What Bun itself accepts. Bodies are limited by the gateway while they stream in (lower
   * limits, answered 413 with the envelope); beyond the gateway's limit the runtime reads and
   * discards the rest so the client can read that answer, up to this many bytes. Past it, the
   * runtime answers a bare 413 and closes.
   */
  maxRequestBodySize: number;
  /** Total size of the request's header lines beyond which the answer is 431. */
  maxHeaderBytes: number;
  /** Number of header lines beyond which the answer is 431. */
  maxHeaderCount: number;
  /**
   * Seconds Bun keeps a connection with nothing moving on it, a request in progress included
   * (body bytes arriving while the handler reads do not count as movement for Bun, so the body
   * reader restarts this timer with each piece, see request-state.ts). Longer than the gateway's
   * own deadlines (the wait for a body's next piece, bus calls), so the gateway answers first.
   */
  idleTimeoutSeconds: number;
  logger: Logger;
}

/**
 * The origin every request is routed under. Elysia finds the path in `request.url` by character
 * offset (the first `/` after index 11, i.e. after `http://` and a host of four or more
 * characters), and Bun builds that URL from the client's Host header: `Host: x` shifted the path
 * (`/v1/v1/deployments` served as `/v1/deployments`), `Host: api` made every route 404, and an
 * invalid Host left a bare path. The gateway serves one API whatever the Host says, so it routes
 * on the request target alone, under a fixed origin.
 */
const ROUTING_ORIGIN = 'http://gateway.internal';

/** Path and query as the client sent them, from Bun's URL (absolute, or a bare path when the Host was invalid). */
export function requestTarget(url: string): string {
  if (url.startsWith('/')) return url;
  const scheme = url.indexOf('://');
  const path = scheme === -1 ? -1 : url.indexOf('/', scheme + 3);
  if (path !== -1) return url.slice(path);
  const query = scheme === -1 ? -1 : url.indexOf('?', scheme + 3);
  return query === -1 ? '/' : '/' + url.slice(query);
}

function headerSize(headers: Headers): { bytes: number; count: number } {
  let bytes = 0;
  let count = 0;
  headers.forEach((value, name) => {
    bytes += name.length + value.length + 4;
    count++;
  });
  return { bytes, count };
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

  if (options.maxHeaderBytes >= maxHeaderSize) {
    // Bun's parser answers a bare 431 (no envelope, no request id) above its own limit, which is
    // set by --max-http-header-size (deploy/bin/services.ts passes 64 KiB).
    options.logger.warn('request headers between the runtime limit and MAX_HEADER_BYTES get the runtime\'s bare 431', {
      runtime_max_header_bytes: maxHeaderSize,
      max_header_bytes: options.maxHeaderBytes,
    });
  }

  const server: Server<unknown> = Bun.serve({
    port: options.port,
    hostname: options.hostname ?? '0.0.0.0',
    maxRequestBodySize: options.maxRequestBodySize,
    idleTimeout: options.idleTimeoutSeconds,
    fetch: async (incoming, runtime) => {
      const target = requestTarget(incoming.url);
      const request = new Request(ROUTING_ORIGIN + target, incoming);
      const state = beginRequest(request, incoming.signal);
      state.keepAlive = () => {
        try {
          runtime.timeout(incoming, options.idleTimeoutSeconds);
        } catch {
          // The connection is already gone; the read that called this ends on its own.
        }
      };
      const finish = (response: Response) => {
        response.headers.set('request-id', state.id);
        // Nothing the gateway serves is meant to be sniffed into another type (file downloads
        // carry the uploader's content type).
        response.headers.set('x-content-type-options', 'nosniff');
        // A body that stopped arriving leaves the connection mid-request: close it after the answer.
        if (response.status === 408) response.headers.set('connection', 'close');
        return response;
      };
      if (draining) return finish(errorResponse(new ApiError('overloaded_error', 'The gateway is shutting down'), state.id));
      const size = headerSize(incoming.headers);
      if (size.bytes > options.maxHeaderBytes || size.count > options.maxHeaderCount) {
        const message =
          size.count > options.maxHeaderCount
            ? `request has more than ${options.maxHeaderCount} header fields`
            : `request headers are larger than the ${options.maxHeaderBytes}-byte limit`;
        return finish(errorResponse(new ApiError('invalid_request_error', message, { status: 431 }), state.id));
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
      const path = target.split('?')[0];
      if (path !== '/healthz' && path !== '/readyz') {
        options.logger.info('http request', {
          request_id: state.id,
          method: request.method,
          path,
          operation: state.operation,
          organization_id: state.tenant?.organization_id,
          workspace_id: state.tenant?.workspace_id,
          status: response.status,
          duration_ms: Math.round((performance.now() - started) * 100) / 100,
        });
      }
      return finish(response);
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
