import { invalidRequest } from '@shared/errors/api-error';

/**
 * The API versions the gateway speaks, with what each asks of the `beta` query. `2023-06-01` is
 * the interface's (and SDK 0.x's): `beta=true` on every /v1 route. `2026-10-21` is what SDK 1.x
 * sends; since 1.3.0 it sends no `beta` query, so there the query is optional, and `true` when
 * present. Nothing else about a request differs between the two.
 */
export const API_VERSIONS = {
  '2023-06-01': { betaQuery: 'required' },
  '2026-10-21': { betaQuery: 'optional' },
} as const satisfies Record<string, { betaQuery: 'required' | 'optional' }>;
export type ApiVersion = keyof typeof API_VERSIONS;

/** The interface's version: the rules a request follows when it names none. */
export const API_VERSION: ApiVersion = '2023-06-01';
export const SUPPORTED_VERSIONS = Object.keys(API_VERSIONS) as ApiVersion[];
export const REQUIRED_BETA = 'managed-agents-2026-04-01';

const SUPPORTED_LIST = SUPPORTED_VERSIONS.join(', ');

/** Routes where the version and beta headers are mandatory (PRODUCT.md section 1). */
const STRICT_PREFIXES = ['/v1/deployments', '/v1/deployment_runs'];

/**
 * Betas a present header may name instead, by route: the SDK sends its memory-store calls under
 * `agent-memory-2026-07-22` alone (and may send its skills calls under `skills-2025-10-02`), and
 * must work unchanged.
 */
const ROUTE_BETAS: Array<[prefix: string, betas: string[]]> = [
  ['/v1/memory_stores', ['agent-memory-2026-07-22']],
  ['/v1/skills', ['skills-2025-10-02']],
];

const underPrefix = (path: string, prefix: string) => path === prefix || path.startsWith(prefix + '/');

/** Whether the version and beta headers must be sent on a path (a request's, or a route's template). */
export const requiresVersionHeaders = (path: string) => STRICT_PREFIXES.some((p) => underPrefix(path, p));

/** The betas a present beta header must name one of, on a path. */
export const acceptedBetas = (path: string) => [REQUIRED_BETA, ...ROUTE_BETAS.filter(([p]) => underPrefix(path, p)).flatMap(([, b]) => b)];

const isApiVersion = (value: string): value is ApiVersion => Object.hasOwn(API_VERSIONS, value);

function headerValue(headers: Headers, names: string[]): { name: string; value: string } | undefined {
  for (const name of names) {
    const value = headers.get(name);
    if (value !== null) return { name, value };
  }
  return undefined;
}

/**
 * The version header (or the interface's placeholder `vendor-` spelling) required on deployment
 * routes and validated wherever sent; `<prefix>-beta` likewise; the `beta` query as the version
 * asks. Returns the version whose rules the request follows.
 */
export function checkVersioning(url: URL, headers: Headers, headerPrefix: string): ApiVersion {
  const strict = requiresVersionHeaders(url.pathname);
  const versionName = `${headerPrefix}-version`;
  const betaName = `${headerPrefix}-beta`;

  const sent = headerValue(headers, [versionName, 'vendor-version']);
  if (!sent && strict) throw invalidRequest(`${versionName}: header is required; supported values: ${SUPPORTED_LIST}`);
  const value = sent?.value.trim() ?? API_VERSION;
  if (!isApiVersion(value)) throw invalidRequest(`${sent?.name ?? versionName}: unsupported value; supported values: ${SUPPORTED_LIST}`);

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
  if (betaQuery.length === 0) {
    if (API_VERSIONS[value].betaQuery === 'required') {
      throw invalidRequest(`beta: query parameter is required and must be true (optional with ${versionName}: 2026-10-21)`);
    }
    return value;
  }
  if (betaQuery.length > 1) throw invalidRequest('beta: must be given at most once');
  if (betaQuery[0] !== 'true') throw invalidRequest('beta: must be true');
  return value;
}
