import { invalidRequest } from '../../../../shared/errors/api-error';

export const API_VERSION = '2023-06-01';
export const REQUIRED_BETA = 'managed-agents-2026-04-01';

/** Routes where the version and beta headers are mandatory (PRODUCT.md section 1). */
const STRICT_PREFIXES = ['/v1/deployments', '/v1/deployment_runs'];

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
  const strict = STRICT_PREFIXES.some((p) => url.pathname === p || url.pathname.startsWith(p + '/'));
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
    if (!listed.includes(REQUIRED_BETA)) throw invalidRequest(`${beta.name}: must include ${REQUIRED_BETA}`);
  }

  const betaQuery = url.searchParams.getAll('beta');
  if (betaQuery.length === 0) throw invalidRequest('beta: query parameter is required and must be true');
  if (betaQuery.length > 1) throw invalidRequest('beta: must be given at most once');
  if (betaQuery[0] !== 'true') throw invalidRequest('beta: must be true');
}
