import { ApiError } from '@shared/errors/api-error';
import { newId } from '@shared/ids/ids';
import type { Tenant } from '@shared/schema/tenant';

/**
 * Per-request facts the outer server and Elysia hooks share. Keyed by the Request object, so
 * nothing leaks between requests and nothing needs clearing.
 */
export interface RequestState {
  id: string;
  tenant?: Tenant;
  operation?: string;
  /** Aborts when the client's connection is gone (the runtime's own request signal). */
  connection?: AbortSignal;
  /** The connection's peer address: the client, or the nearest proxy (domain/client-address.ts). */
  peerAddress?: string;
  /**
   * Headers every answer to this request carries, whatever it is (the rate limit's, decided once
   * the caller is known): stamped by the outer server with the request id.
   */
  responseHeaders?: Record<string, string>;
  /**
   * Restarts the runtime's idle timer for this request's connection. Bun does not restart it for
   * body bytes that arrive while the handler reads, so a slow steady body would otherwise be
   * dropped without an answer.
   */
  keepAlive?: () => void;
}

const states = new WeakMap<Request, RequestState>();

export function beginRequest(request: Request, connection?: AbortSignal, peerAddress?: string): RequestState {
  const state: RequestState = { id: newId('request'), connection, peerAddress };
  states.set(request, state);
  return state;
}

export function requestState(request: Request): RequestState {
  let state = states.get(request);
  if (!state) state = beginRequest(request);
  return state;
}

/**
 * The last point before a request takes effect: if the client's connection is gone by then, the
 * request is refused here rather than executed with nobody to answer. One turn of the event loop
 * first lets the runtime process bytes and closes that already arrived. (Under Bun.serve 1.4.5 a
 * pipelined request closed the connection this way; the gateway now serves node:http, which
 * answers pipelined requests in order, see http-server.ts.)
 */
export async function ensureAnswerable(request: Request): Promise<void> {
  const connection = requestState(request).connection ?? request.signal;
  await new Promise<void>((resolve) => setImmediate(resolve));
  if (connection.aborted) {
    throw new ApiError('invalid_request_error', 'connection: closed before the request could be answered; do not pipeline requests');
  }
}
