import { invalidRequest, notFound } from '@shared/errors/api-error';
import { derivedId, newId } from '@shared/ids/ids';
import { REPOSITORY_RESOURCE_TYPES, type SessionResourceConfig, type SessionResourceParams } from '@shared/schema/deployment';
import type { PagePosition } from '@shared/schema/common';
import type { SessionResource, StoredSessionResource } from '@shared/schema/session';
import { normaliseMountPath, resolveResources, type RepositoryUrlRules } from './resources';

/** Most resources one session may hold: the interface's `resources` limit, for every way of adding them. */
export const SESSION_RESOURCES_MAX = 500;

/**
 * A session's resources have ids of their own (SDK `sesrsc_…`). A session is created with its
 * list copied (a fire copies a deployment's, hundreds of times a second), so ids are not written
 * then: resource `i` of a list never changed is `derivedId(session, i)`, which is also what the
 * sessions stored before resources had ids get. The first change of the list (add, token
 * rotation, delete) writes every resource's identity into the row (`materialised`), so ids stay
 * what they were shown as whatever moves afterwards.
 */
export const derivedResourceId = (sessionId: string, index: number) => derivedId('sessionResource', `${sessionId}/resources/${index}`);

/** Every resource with its identity: stored, or derived from its position and the session's creation. */
export function materialised(sessionId: string, createdAt: Date, stored: StoredSessionResource[]): SessionResource[] {
  const at = createdAt.toISOString();
  return stored.map(
    (r, i) => ({ ...r, id: r.id ?? derivedResourceId(sessionId, i), created_at: r.created_at ?? at, updated_at: r.updated_at ?? at }) as SessionResource,
  );
}

export const sessionResourceNotFound = (sessionId: string, resourceId: string) =>
  notFound(`resource '${resourceId}' not found in session '${sessionId}'`);

export const isRepositoryResource = (r: { type: string }): boolean => (REPOSITORY_RESOURCE_TYPES as readonly string[]).includes(r.type);

/**
 * A resource added to a session: checked and defaulted as at creation (resolveResources), its
 * mount path not already taken by another resource, the list not over the limit. The reference
 * (file, memory store) and its token are the caller's to check and seal.
 */
export function planResourceAdd(
  current: SessionResource[],
  params: SessionResourceParams,
  rules: RepositoryUrlRules,
  now: Date,
): { resource: SessionResource; token: string | null; file: string | null; memoryStore: string | null } {
  if (current.length >= SESSION_RESOURCES_MAX) {
    throw invalidRequest(`resources: a session holds at most ${SESSION_RESOURCES_MAX} resources`);
  }
  // Same defaults and rules as a create's list of one; its error paths name `resources.0`, so
  // they are renamed to the body's own fields.
  let resolved: ReturnType<typeof resolveResources>;
  try {
    resolved = resolveResources([params], rules);
  } catch (err) {
    if (err instanceof Error) err.message = err.message.replace(/^resources\.0\./, '');
    throw err;
  }
  const config: SessionResourceConfig = resolved.configs[0]!;
  if ('mount_path' in config) {
    const taken = current.find((r) => 'mount_path' in r && normaliseMountPath(r.mount_path, 'mount_path') === config.mount_path);
    if (taken) throw invalidRequest(`mount_path: '${config.mount_path.slice(0, 200)}' is already used by resource '${taken.id}'`);
  }
  const at = now.toISOString();
  return {
    resource: { ...config, id: newId('sessionResource'), created_at: at, updated_at: at } as SessionResource,
    token: resolved.tokens[0]?.token ?? null,
    file: resolved.files[0]?.id ?? null,
    memoryStore: resolved.memoryStores[0]?.id ?? null,
  };
}

/** The resource a token rotation applies to: only repository resources carry a token (SDK: "currently only github_repository"). */
export function checkTokenRotation(resource: SessionResource): void {
  if (!isRepositoryResource(resource)) {
    throw invalidRequest(`authorization_token: only repository resources take a token; resource '${resource.id}' is a ${resource.type} resource`);
  }
}

/** The memory stores a list mounts, each once (what session_memory_stores holds for the session). */
export const mountedMemoryStores = (resources: Array<{ type: string; memory_store_id?: string }>): string[] => [
  ...new Set(resources.flatMap((r) => (r.type === 'memory_store' && r.memory_store_id ? [r.memory_store_id] : []))),
];

/**
 * One page of a session's resources in list order (at most 500, read with the session's row).
 * A position is the last resource a page showed: the next page starts after it, or, if it was
 * deleted meanwhile, at the first resource created after it (what a keyset on (created_at, id)
 * would give), so paging never repeats or stops early because of a delete.
 */
export function resourcePage(
  row: { id: string; createdAt: Date; resources: StoredSessionResource[] },
  limit: number,
  after: PagePosition | null,
): { data: SessionResource[]; next: PagePosition | null } {
  const all = materialised(row.id, row.createdAt, row.resources);
  let start = 0;
  if (after) {
    const at = all.findIndex((r) => r.id === after.id);
    start = at >= 0 ? at + 1 : all.findIndex((r) => r.created_at > after.created_at || (r.created_at === after.created_at && r.id > after.id));
    if (start < 0) start = all.length;
  }
  const data = all.slice(start, start + limit);
  const last = data[data.length - 1];
  return { data, next: last && start + limit < all.length ? { created_at: last.created_at, id: last.id } : null };
}
