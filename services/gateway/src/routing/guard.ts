import { Elysia } from 'elysia';
import type { CallContext } from '@shared/bus/call-context';
import { sessionSubjects } from '@shared/bus/subjects/sessions';
import { readRawBody, RawBody } from '../http/raw-body';
import { ensureAnswerable, requestState } from '../http/request-state';
import { clientAddress } from '../domain/client-address';
import { readIdempotencyKey, requestFingerprint } from '../domain/idempotency-key';
import { checkPermission } from '../domain/permission';
import { checkStrayQueryParameters } from '../domain/query-parameters';
import { checkVersioning } from '../domain/versioning';
import type { GatewayDeps } from '../deps';
import { checkPathEncoding } from './path-id';
import { checkSessionScope } from './session-scope';

/**
 * Routes whose body is a file upload (a file, a skill's files): multipart, limited by FILE_MAX_BYTES plus room for the
 * form's boundaries and part headers. Every other body is limited by MAX_BODY_BYTES.
 */
const UPLOAD_ROUTES = new Set(['POST /v1/files', 'POST /v1/skills', 'POST /v1/skills/:skill_id/versions']);
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

/**
 * How long reading a body may take in all. BODY_READ_DEADLINE_MS is set for the largest JSON
 * body; a route with a larger limit (uploads) gets the time that limit takes at the same average
 * rate, so a client slow enough to be served for one is served for the other.
 */
function bodyDeadlineMs(config: GatewayDeps['config'], maxBytes: number): number {
  return Math.ceil(config.BODY_READ_DEADLINE_MS * Math.max(1, maxBytes / config.MAX_BODY_BYTES));
}

/** What the parse phase leaves in `body`: a promise to read it once the caller is known. */
const DEFERRED_BODY = Symbol('deferred body');

/**
 * Runs for every matched API route, in the order PRODUCT.md fixes: the route already exists
 * (else Elysia's 404), then credentials (401), permission (403), versioning (400), and only then
 * the body. Elysia's parse phase runs before `resolve`, so the parse hook reads nothing and
 * parses nothing (multipart included): it leaves a marker, and the body is read here, after the
 * checks, with its size limit and read timeout enforced while it streams in. What it resolves
 * (`call`, `url`, the raw `body`, a POST's `idempotency` key) is `GuardedContext`
 * (routing/route.ts): each route's `route()` or page handler parses it against the schemas the
 * route declares.
 *
 * The caller's rate limits (429) come right after its credentials: they need the key, and a
 * refused request should cost nothing more.
 */
export function createGuard(deps: GatewayDeps) {
  return new Elysia({ name: 'gateway-guard' })
    .onParse({ as: 'global' }, () => DEFERRED_BODY)
    .resolve({ as: 'global' }, async ({ request, route, body, params }) => {
      const state = requestState(request);
      const operation = `${request.method} ${route}`;
      state.operation = operation;
      const url = new URL(request.url);
      const { tenant, sessionScope } = await deps.authenticator.authenticate(request.headers, () =>
        clientAddress(state.peerAddress, request.headers.get('x-forwarded-for'), deps.config.TRUSTED_PROXY_HOPS),
      );
      state.tenant = tenant;
      // The caller's limits, as soon as it is known: a request it is not allowed is refused before
      // anything else is decided or read, and every answer from here on says how much is left.
      state.responseHeaders = await deps.rateLimits.admitCaller(tenant);
      if (sessionScope) {
        await checkSessionScope(sessionScope, operation, params, () =>
          deps.bus.call(sessionSubjects.get, { request_id: state.id, tenant }, { session_id: sessionScope.session_id }),
        );
      }
      checkPermission(tenant, request.method, request.headers);
      checkVersioning(url, request.headers, deps.config.API_HEADER_PREFIX);
      checkStrayQueryParameters(request.method, route, url);
      checkPathEncoding(params);
      const idempotencyKey = readIdempotencyKey(request.method, request.headers);
      let raw: RawBody | undefined;
      if (body === DEFERRED_BODY) {
        const maxBytes = UPLOAD_ROUTES.has(operation)
          ? deps.config.FILE_MAX_BYTES + MULTIPART_OVERHEAD_BYTES
          : deps.config.MAX_BODY_BYTES;
        raw = await readRawBody(request, {
          maxBytes,
          idleTimeoutMs: deps.config.BODY_READ_TIMEOUT_MS,
          deadlineMs: bodyDeadlineMs(deps.config, maxBytes),
          onProgress: state.keepAlive,
        });
        // The handler's own work (bus calls) gets the runtime's whole idle allowance from here.
        state.keepAlive?.();
      }
      await ensureAnswerable(request);
      const call: CallContext = { request_id: state.id, tenant };
      const idempotency =
        idempotencyKey === undefined
          ? undefined
          : deps.idempotency.pending(
              request,
              tenant,
              idempotencyKey,
              requestFingerprint(request.method, url.pathname + url.search, raw?.bytes),
            );
      return { call, url, body: raw, idempotency };
    });
}
