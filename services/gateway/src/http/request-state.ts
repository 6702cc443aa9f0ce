import { newId } from '../../../../shared/ids/ids';
import type { Tenant } from '../../../../shared/schema/tenant';

/**
 * Per-request facts the outer server and Elysia hooks share. Keyed by the Request object, so
 * nothing leaks between requests and nothing needs clearing.
 */
interface RequestState {
  id: string;
  tenant?: Tenant;
  operation?: string;
}

const states = new WeakMap<Request, RequestState>();

export function beginRequest(request: Request): RequestState {
  const state = { id: newId('request') };
  states.set(request, state);
  return state;
}

export function requestState(request: Request): RequestState {
  let state = states.get(request);
  if (!state) state = beginRequest(request);
  return state;
}
