import { invalidRequest } from '@shared/errors/api-error';

export const API_VERSION = '2023-06-01';
export const REQUIRED_BETA = 'managed-agents-2026-04-01';

/** Routes where the version and beta headers are mandatory (PRODUCT.md section 1). */
const STRICT_PREFIXES = ['/v1/deployments', '/v1/deployment_runs'];

/**
 * Betas a present header may name instead, by route: the SDK sends its memory-store calls under
 * `agent-memory-2026-07-22` alone, and must work unchanged.
 */
const ROUTE_BETAS: Array<[prefix: string, betas: string[]]> = [['/v1/memory_stores', ['agent-memory-2026-07-22']]];

const underPrefix = (path: string, prefix: string) => path === prefix || path.startsWith(prefix + '/');

/** Whether the version and beta headers must be sent on a path (a request's, or a route's template). */
export const requiresVersionHeaders = (path: string) => STRICT_PREFIXES.some((p) => underPrefix(path, p));

/** The betas a present beta header must name one of, on a path. */
export const acceptedBetas = (path: string) => [REQUIRED_BETA, ...ROUTE_BETAS.filter(([p]) => underPrefix(path, p)).flatMap(([, b]) => b)];

function headerValue(headers: Headers, names: string[]): { name: string; value: string } | undefined {
  for (const name of names) {
    const value = headers.get(name);
    if (value !== null) return { name, value };
  }
  return undefined;
}

/**
 * `beta=true` on every /v1 route; `<prefix>-version` and `<prefix>-beta` (or the interface's
 * placeholder `vendor-` spellings) required on deployment routes and validated wherever sent.
 */
export function checkVersioning(url: URL, headers: Headers, headerPrefix: string): void {
  const strict = requiresVersionHeaders(url.pathname);
  const versionName = `${headerPrefix}-version`;
  const betaName = `${headerPrefix}-beta`;

  const version = headerValue(headers, [versionName, 'vendor-version']);
  if (!version && strict) {
    throw invalidRequest(`${versionName}: header is required; supported value: ${API_VERSION}`);
  }
  if (version && version.value.trim() !== API_VERSION) {
    throw invalidRequest(`${version.name}: unsupported value; supported value: ${API_VERSION}`);
  }

  const beta = headerValue(headers, [betaName, 'vendor-beta']);
  if (!beta && strict) {
    throw invalidRequest(`${betaName}: header is required and must include ${REQUIRED_BETA}`);
  }
  if (beta) {
    const listed = beta.value.split(',').map((b) => b.trim());
    const accepted = acceptedBetas(url.pathname);
    if (!listed.some((b) => accepted.includes(b))) throw invalidRequest(`${beta.name}: must include ${accepted.join(' or ')}`);
  }

  const betaQuery = url.searchParams.getAll('beta');
  if (betaQuery.length === 0) throw invalidRequest('beta: query parameter is required and must be true');
  if (betaQuery.length > 1) throw invalidRequest('beta: must be given at most once');
  if (betaQuery[0] !== 'true') throw invalidRequest('beta: must be true');
}
