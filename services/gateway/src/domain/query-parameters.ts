import { invalidRequest } from '@shared/errors/api-error';

/** Item routes that declare a query schema (`route.get(path, { query })`, routing/route.ts). */
const ITEM_ROUTES_WITH_QUERY = new Set([
  'GET /v1/agents/:agent_id',
  'POST /v1/environments/:environment_id/work/:work_id/heartbeat',
  // A memory's and a version's `view`, a memory delete's `expected_content_sha256`.
  'POST /v1/memory_stores/:memory_store_id/memories',
  'GET /v1/memory_stores/:memory_store_id/memories/:memory_id',
  'POST /v1/memory_stores/:memory_store_id/memories/:memory_id',
  'DELETE /v1/memory_stores/:memory_store_id/memories/:memory_id',
  'GET /v1/memory_stores/:memory_store_id/memory_versions/:memory_version_id',
]);

/**
 * Unknown query parameters are 400 (PRODUCT.md section 1). List routes (a GET on a collection)
 * and the few item routes above parse their query against the schema they declare; every other
 * route accepts nothing but `beta`, so that rule is enforced here once, by the guard, before the
 * body is read (a route's own query is parsed only after it).
 */
export function checkStrayQueryParameters(method: string, route: string, url: URL): void {
  const takesQuery =
    (method === 'GET' && !/\/:[A-Za-z_]+$/.test(route)) || ITEM_ROUTES_WITH_QUERY.has(`${method} ${route}`);
  if (takesQuery) return;
  for (const name of url.searchParams.keys()) {
    if (name !== 'beta') throw invalidRequest(`${name}: unknown query parameter`);
  }
}
