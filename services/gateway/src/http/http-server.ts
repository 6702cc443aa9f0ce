import { createServer, maxHeaderSize, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { ApiError } from '@shared/errors/api-error';
import type { Logger } from '@shared/log/logger';
import type { HttpRequests } from '@shared/telemetry/http-requests';
import { errorResponse } from './error-response';
import { beginRequest, type RequestState } from './request-state';
import { requestBody } from './request-body';
import { writeResponse } from './write-response';

export interface HttpServerOptions {
  port: number;
  /** Listening address (the gateway's HOST setting); every interface when unset. */
  hostname?: string;
  /**
   * The most body bytes a connection may send for one request. Bodies are limited by the gateway
   * while they stream in (lower limits, answered 413 with the envelope); a body the gateway did
   * not read (refused, or answered before it was read) is read and discarded after the answer so
   * a client that sends everything before reading still gets it, up to this many bytes in all.
   * Past it the connection is closed: node:http's own discard has no bound.
   */
  maxRequestBodySize: number;
  /** Total size of the request's header lines beyond which the answer is 431. */
  maxHeaderBytes: number;
  /** Number of header lines beyond which the answer is 431. */
  maxHeaderCount: number;
  /**
   * Seconds a connection is kept with nothing moving on it, between requests (keep-alive) and
   * during one (the socket's inactivity timeout, which the body reader also restarts with each
   * piece, see request-state.ts). Longer than the gateway's own deadlines (the wait for a body's
   * next piece, bus calls), so the gateway answers first.
   */
  idleTimeoutSeconds: number;
  logger: Logger;
  /** Each request's metrics and the root span of its trace (shared/telemetry/http-requests.ts). */
  requests: HttpRequests;
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

/** Probes are neither logged, counted nor traced: a line and a trace every few seconds per pod say nothing. */
const PROBE_PATHS = new Set(['/healthz', '/readyz']);

/** Path and query as the client sent them, from Bun's URL (absolute, or a bare path when the Host was invalid). */
export function requestTarget(url: string): string {
  if (url.startsWith('/')) return url;
  const scheme = url.indexOf('://');
  const path = scheme === -1 ? -1 : url.indexOf('/', scheme + 3);
  if (path !== -1) return url.slice(path);
  const query = scheme === -1 ? -1 : url.indexOf('?', scheme + 3);
  return query === -1 ? '/' : '/' + url.slice(query);
}

/** `POST /v1/deployments/:deployment_id` -> `/v1/deployments/:deployment_id`; none for a request no route matched. */
function routeTemplate(operation: string | undefined): string | undefined {
  return operation === undefined ? undefined : operation.slice(operation.indexOf(' ') + 1);
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
 *
 * Served by node:http's `createServer` (as Bun implements it), not `Bun.serve`: Bun.serve 1.4.5
 * closes a connection when a request head arrives while the previous answer on it is pending
 * (uWS's HTTP_RESPONSE_PENDING), dropping that answer while its handler runs on, so a pipelined
 * create could take effect unanswered. node:http queues pipelined requests and answers them in
 * order. The web Request/Response the app works with are built here.
 */
export async function startHttpServer(handle: (request: Request) => Promise<Response>, options: HttpServerOptions) {
  let inFlight = 0;
  let draining = false;
  let idle: (() => void) | undefined;
  const idleMs = options.idleTimeoutSeconds * 1000;
  warnAboveRuntimeHeaderLimit(options);

  async function serve(incoming: IncomingMessage, res: ServerResponse): Promise<void> {
    const { request, method, body, path, connection } = webRequest(incoming, res, options);
    const state = beginRequest(request, connection, incoming.socket?.remoteAddress);
    state.keepAlive = () => incoming.socket?.setTimeout(idleMs);
    const observation = PROBE_PATHS.has(path) ? undefined : options.requests.begin(method, state.id);
    const finish = (response: Response) => {
      // The route template Elysia matched (the guard, or the app's hook for routes without it).
      observation?.end(routeTemplate(state.operation), response.status);
      return answer(res, method, body, completeResponse(response, state));
    };
    if (draining) return finish(errorResponse(new ApiError('overloaded_error', 'The gateway is shutting down'), state.id));
    const refusal = headerLimitRefusal(request.headers, options);
    if (refusal) return finish(errorResponse(refusal, state.id));
    const started = performance.now();
    inFlight++;
    let response: Response;
    try {
      response = observation ? await observation.run(() => handle(request)) : await handle(request);
    } catch (err) {
      response = errorResponse(new ApiError('api_error', undefined, { cause: err }), state.id);
    } finally {
      inFlight--;
      if (draining && inFlight === 0) idle?.();
    }
    if (observation) logRequest(options.logger, state, request.method, path, response.status, started);
    return finish(response);
  }

  const server = createServer((incoming, res) => {
    serve(incoming, res).catch(() => answerLastResort(res));
  });
  const port = await listen(server, options, idleMs);
  return {
    server,
    port,
    /** Stops accepting, then resolves when every in-flight request has answered. */
    async drain(): Promise<void> {
      draining = true;
      if (inFlight > 0) await new Promise<void>((resolve) => (idle = resolve));
      server.close();
      server.closeIdleConnections();
    },
  };
}

function warnAboveRuntimeHeaderLimit(options: HttpServerOptions): void {
  if (options.maxHeaderBytes < maxHeaderSize) return;
  // The runtime's parser answers a bare 431 (no envelope, no request id) above its own limit,
  // which is set by --max-http-header-size (deploy/bin/services.ts passes 64 KiB).
  options.logger.warn('request headers between the runtime limit and MAX_HEADER_BYTES get the runtime\'s bare 431', {
    runtime_max_header_bytes: maxHeaderSize,
    max_header_bytes: options.maxHeaderBytes,
  });
}

/**
 * The web Request the app works with, from node:http's: routed under the fixed origin, its body
 * streamed (and bounded) when it declares one, aborted when the connection goes before the answer.
 */
function webRequest(incoming: IncomingMessage, res: ServerResponse, options: HttpServerOptions) {
  const target = requestTarget(incoming.url ?? '/');
  const connection = new AbortController();
  // The connection went away before the answer was written: what the handler does is for nobody.
  res.once('close', () => {
    if (!res.writableFinished) connection.abort();
  });
  // A request without a body (most reads) needs no stream; one that declares a body gets it even
  // on GET, so what nobody reads is still discarded within the bound.
  const declaresBody = incoming.headers['transfer-encoding'] !== undefined || Number(incoming.headers['content-length'] ?? 0) > 0;
  const body = declaresBody ? requestBody(incoming, res, options.maxRequestBodySize) : undefined;
  const headers = new Headers();
  const raw = incoming.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i], raw[i + 1]);
  const method = incoming.method ?? 'GET';
  const request = new Request(ROUTING_ORIGIN + target, {
    method,
    headers,
    body: method === 'GET' || method === 'HEAD' ? null : (body?.stream ?? null),
    signal: connection.signal,
    // A streamed request body must say so (fetch's RequestInit.duplex).
    duplex: 'half',
  });
  return { request, method, body, path: target.split('?')[0]!, connection: connection.signal };
}

/** 431 for a request whose header lines are too many or too large in all; none when they fit. */
function headerLimitRefusal(headers: Headers, options: HttpServerOptions): ApiError | undefined {
  const size = headerSize(headers);
  if (size.bytes <= options.maxHeaderBytes && size.count <= options.maxHeaderCount) return undefined;
  const message =
    size.count > options.maxHeaderCount
      ? `request has more than ${options.maxHeaderCount} header fields`
      : `request headers are larger than the ${options.maxHeaderBytes}-byte limit`;
  return new ApiError('invalid_request_error', message, { status: 431 });
}

/** The headers every answer carries: what the request's handling set, its id, no sniffing, and a close after a 408. */
function completeResponse(response: Response, state: RequestState): Response {
  if (state.responseHeaders) for (const [name, value] of Object.entries(state.responseHeaders)) response.headers.set(name, value);
  response.headers.set('request-id', state.id);
  // Nothing the gateway serves is meant to be sniffed into another type (file downloads
  // carry the uploader's content type).
  response.headers.set('x-content-type-options', 'nosniff');
  // A body that stopped arriving leaves the connection mid-request: close it after the answer.
  if (response.status === 408) response.headers.set('connection', 'close');
  return response;
}

/** Writes the answer, and what the request's body still owes (discarded before a closing answer ends, or after it). */
function answer(res: ServerResponse, method: string, body: ReturnType<typeof requestBody> | undefined, response: Response): Promise<void> {
  // A closing exchange ends the connection with the answer: its unread body is discarded
  // before the answer ends, not after (a stalled body, 408, is not waited for).
  const holdEnd = body?.endsConnection && response.status !== 408 ? body.untilDiscarded() : undefined;
  const written = writeResponse(res, response, method, holdEnd);
  return body ? written.finally(body.afterAnswer) : written;
}

function logRequest(logger: Logger, state: RequestState, method: string, path: string, status: number, started: number): void {
  logger.info('http request', {
    request_id: state.id,
    method,
    path,
    operation: state.operation,
    organization_id: state.tenant?.organization_id,
    workspace_id: state.tenant?.workspace_id,
    status,
    duration_ms: Math.round((performance.now() - started) * 100) / 100,
  });
}

/** Only writing the answer can fail (the handler's failures are answered): the connection is gone or broken. */
function answerLastResort(res: ServerResponse): void {
  if (!res.headersSent) {
    res.statusCode = 500;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ type: 'error', error: { type: 'api_error', message: 'Internal server error' }, request_id: null }));
  } else res.destroy();
}

/** Listens with the gateway's timeouts; resolves with the port bound. */
async function listen(server: Server, options: HttpServerOptions, idleMs: number): Promise<number> {
  // The gateway's own deadlines (body reads, bus calls) end every request; node:http's whole
  // request deadline would answer a bare 408 without the envelope.
  server.requestTimeout = 0;
  server.timeout = idleMs;
  server.keepAliveTimeout = idleMs;
  // A client that sends its request and then closes its sending side (a TCP half-close, as
  // `nc -N` does) still waits for the answer; by default node:http would close the connection and
  // drop the answer of a request that runs anyway.
  (server as { httpAllowHalfOpen?: boolean }).httpAllowHalfOpen = true;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.hostname ?? '0.0.0.0', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  return typeof address === 'object' && address ? address.port : options.port;
}
