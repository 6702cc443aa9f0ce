import { notFound } from '@shared/errors/api-error';
import { isIdOf, type IdKind } from '@shared/ids/ids';

const NOUNS: Record<IdKind, string> = {
  deployment: 'deployment',
  vault: 'vault',
  credential: 'credential',
  agent: 'agent',
  environment: 'environment',
  file: 'file',
  memoryStore: 'memory store',
  memory: 'memory',
  memoryVersion: 'memory version',
  skill: 'skill',
  skillVersion: 'skill version',
  session: 'session',
  sessionResource: 'session resource',
  outcome: 'outcome',
  sessionEvent: 'session event',
  deploymentRun: 'deployment run',
  work: 'work item',
  request: 'request',
  apiKey: 'API key',
  event: 'event',
};

/**
 * A path id in any form but its kind's exact one (`depl_…%20`, `DEPL_…`, `vlt_…` on a deployment
 * route) names nothing: 404, as for a missing resource (PRODUCT.md: a resource that cannot be
 * found is 404 whatever the reason), answered here before any lookup, so it never reaches a
 * PAD SPACE comparison. It runs in the handler, after the guard: credentials, permission and
 * versioning are still checked first.
 */
export function pathId(kind: IdKind, value: string | null): string {
  if (value !== null && isIdOf(kind, value)) return value;
  throw notFound(value === null ? `${NOUNS[kind]} not found` : `${NOUNS[kind]} ${JSON.stringify(value.slice(0, 128))} not found`);
}

/** Every id path parameter of the public routes, by name. */
const PATH_ID_KINDS: Record<string, IdKind | undefined> = {
  deployment_id: 'deployment',
  deployment_run_id: 'deploymentRun',
  session_id: 'session',
  resource_id: 'sessionResource',
  agent_id: 'agent',
  environment_id: 'environment',
  file_id: 'file',
  memory_store_id: 'memoryStore',
  memory_id: 'memory',
  memory_version_id: 'memoryVersion',
  skill_id: 'skill',
  vault_id: 'vault',
  credential_id: 'credential',
  work_id: 'work',
};

/** The id kind a path parameter names, if it names one (the document shows its exact form). */
export const pathIdKind = (name: string): IdKind | undefined => (Object.hasOwn(PATH_ID_KINDS, name) ? PATH_ID_KINDS[name] : undefined);

/**
 * The router hands a path parameter over as null when its segment is not valid percent-encoding
 * (`%FF`, `%`, an encoded lone surrogate): such a path names nothing, on every route, so 404.
 */
export function checkPathEncoding(params: Record<string, string | null | undefined> | undefined): void {
  for (const value of Object.values(params ?? {})) {
    if (value === null) throw notFound('Not found: the path is not valid percent-encoded UTF-8');
  }
}

/** A module's `onBeforeHandle`: checks every id parameter of the matched route with `pathId`. */
export function checkPathIds({ params }: { params: Record<string, string | null | undefined> }): void {
  for (const [name, value] of Object.entries(params ?? {})) {
    const kind = pathIdKind(name);
    if (kind && value !== undefined) pathId(kind, value);
  }
}
