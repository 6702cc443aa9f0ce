import { invalidRequest, notFound } from '@shared/errors/api-error';
import { derivedId, newId } from '@shared/ids/ids';
import { MEMORY_MOUNT_ROOT, REPOSITORY_RESOURCE_TYPES, type SessionResourceConfig, type SessionResourceParams } from '@shared/schema/deployment';
import type { PagePosition } from '@shared/schema/common';
import type { SessionResource, StoredSessionResource } from '@shared/schema/session';
import type { MemoryStoreSnapshots } from './references';
import { checkMemoryStoreMount, normaliseMountPath, resolveResources, type RepositoryUrlRules } from './resources';

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
  if (config.type === 'memory_store') {
    checkMemoryStoreMount(current.filter((r) => r.type === 'memory_store'), 'memory_store_id');
  } else {
    const taken = current.find((r) => typeof (r as { mount_path?: unknown }).mount_path === 'string' && normaliseMountPath((r as { mount_path: string }).mount_path, 'mount_path') === config.mount_path);
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

/** A store's directory name under MEMORY_MOUNT_ROOT: its name as one safe path segment ("User prefs" -> "user-prefs"). */
function memoryDirectory(name: string): string {
  return name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, 64);
}

/**
 * The memory stores of a session's list as attached: each with the snapshot of its name and
 * description (SDK: "snapshotted at attach time") and the directory the SDK's worker mounts it at,
 * `/mnt/memory/<name>` (the store's id where the name gives no segment or another store of the
 * session has it). `others` are the session's resources already attached, whose directories are taken.
 */
export function attachMemoryStores<T extends { type: string }>(resources: T[], snapshots: MemoryStoreSnapshots, others: ReadonlyArray<{ type: string }> = []): T[] {
  const taken = new Set(others.flatMap((r) => (r.type === 'memory_store' && 'mount_path' in r && typeof r.mount_path === 'string' ? [r.mount_path] : [])));
  return resources.map((resource) => {
    if (resource.type !== 'memory_store' || !('memory_store_id' in resource)) return resource;
    const id = resource.memory_store_id as string;
    const snapshot = snapshots.get(id);
    if (!snapshot) return resource;
    let mountPath = `${MEMORY_MOUNT_ROOT}/${memoryDirectory(snapshot.name) || id}`;
    if (taken.has(mountPath)) mountPath = `${MEMORY_MOUNT_ROOT}/${id}`;
    taken.add(mountPath);
    return { ...resource, name: snapshot.name, description: snapshot.description, mount_path: mountPath };
  });
}
