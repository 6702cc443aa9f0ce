import { Elysia } from 'elysia';
import type { CallContext } from '../../../../shared/bus/call-context';
import { readRawBody } from '../http/raw-body';
import { requestState } from '../http/request-state';
import { checkPermission } from '../policy/permission';
import { checkStrayQueryParameters } from '../policy/query-parameters';
import { checkVersioning } from '../policy/versioning';
import type { GatewayDeps } from './gateway-deps';

/**
 * Runs for every matched API route, in the order PRODUCT.md fixes: the route already exists
 * (else Elysia's 404), then credentials (401), permission (403), versioning (400). Bodies are
 * only read here, not parsed, so JSON errors surface after all of these.
 */
export function createGuard(deps: GatewayDeps) {
  return new Elysia({ name: 'gateway-guard' })
    .onParse({ as: 'global' }, async ({ request, contentType }) => {
      if (contentType?.toLowerCase().startsWith('multipart/form-data')) return undefined;
      return readRawBody(request, deps.config.MAX_BODY_BYTES);
    })
    .resolve({ as: 'global' }, async ({ request, route }) => {
      const state = requestState(request);
      state.operation = `${request.method} ${route}`;
      const url = new URL(request.url);
      const tenant = await deps.authenticator.authenticate(request.headers);
      state.tenant = tenant;
      checkPermission(tenant, request.method, request.headers);
      checkVersioning(url, request.headers, deps.config.API_HEADER_PREFIX);
      checkStrayQueryParameters(request.method, route, url);
      const call: CallContext = { request_id: state.id, tenant };
      return { call, url };
    });
}
