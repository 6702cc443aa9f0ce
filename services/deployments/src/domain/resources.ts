import { invalidRequest } from '../../../../shared/errors/api-error';
import {
  REPOSITORY_RESOURCE_TYPES,
  type SessionResourceConfig,
  type SessionResourceParams,
} from '../../../../shared/schema/deployment';

export interface RepositoryToken {
  /** Position in `resources`: the token is sealed bound to it. */
  index: number;
  token: string;
}

export interface ResolvedResources {
  /** The returned form: defaults filled in, write-only credentials removed. */
  configs: SessionResourceConfig[];
  tokens: RepositoryToken[];
  files: Array<{ id: string; path: string }>;
  memoryStores: Array<{ id: string; path: string }>;
}

const isRepository = (
  r: SessionResourceParams,
): r is Extract<SessionResourceParams, { type: (typeof REPOSITORY_RESOURCE_TYPES)[number] }> =>
  (REPOSITORY_RESOURCE_TYPES as readonly string[]).includes(r.type);

/**
 * The repository name a default mount path uses: the last segment of the URL's path without
 * `.git` (`https://github.com/acme/widgets.git` -> `widgets`). The host is never a name
 * (`https://github.com/` has none). scp-like remotes (`git@github.com:acme/widgets.git`) use
 * the part after the colon. Undefined when there is no such segment.
 */
export function repositoryName(url: string): string | undefined {
  let path: string;
  const scpLike = /^[^/:@]+@[^/:]+:(.*)$/.exec(url);
  if (scpLike) path = scpLike[1];
  else if (URL.canParse(url)) path = new URL(url).pathname;
  else path = url.replace(/[?#].*$/, '');
  const last = path.split('/').filter((segment) => segment !== '').pop() ?? '';
  let name = last.replace(/\.git$/i, '');
  try {
    name = decodeURIComponent(name);
  } catch {
    // Not percent-encoded after all: keep it as written.
  }
  return name === '' || name === '.' || name === '..' || name.includes('/') ? undefined : name;
}

/** Paths that name the same directory compare equal: `/a//b/` and `/a/b`. */
const mountKey = (path: string) => path.replace(/\/+/g, '/').replace(/(.)\/$/, '$1');

/**
 * Fills in the documented defaults, rejects two resources mounted at the same path, and
 * separates the write-only tokens from what is stored and returned.
 */
export function resolveResources(resources: SessionResourceParams[]): ResolvedResources {
  const out: ResolvedResources = { configs: [], tokens: [], files: [], memoryStores: [] };
  const mounted = new Map<string, number>();
  const claimMount = (path: string, index: number) => {
    const key = mountKey(path);
    const first = mounted.get(key);
    if (first !== undefined) {
      throw invalidRequest(`resources.${index}.mount_path: '${path.slice(0, 200)}' is already used by resources.${first}`);
    }
    mounted.set(key, index);
  };
  resources.forEach((resource, index) => {
    if (isRepository(resource)) {
      let mountPath = resource.mount_path ?? undefined;
      if (mountPath === undefined) {
        const name = repositoryName(resource.url);
        if (!name) {
          throw invalidRequest(`resources.${index}.url: no repository name in the URL to derive a mount path from; set mount_path`);
        }
        mountPath = `/workspace/${name}`;
      }
      claimMount(mountPath, index);
      out.configs.push({ type: resource.type, url: resource.url, mount_path: mountPath, checkout: resource.checkout ?? null });
      out.tokens.push({ index, token: resource.authorization_token });
    } else if (resource.type === 'file') {
      const mountPath = resource.mount_path ?? `/mnt/session/uploads/${resource.file_id}`;
      claimMount(mountPath, index);
      out.configs.push({ type: 'file', file_id: resource.file_id, mount_path: mountPath });
      out.files.push({ id: resource.file_id, path: `resources.${index}.file_id` });
    } else {
      out.configs.push({
        type: 'memory_store',
        memory_store_id: resource.memory_store_id,
        access: resource.access ?? 'read_write',
        instructions: resource.instructions ?? null,
      });
      out.memoryStores.push({ id: resource.memory_store_id, path: `resources.${index}.memory_store_id` });
    }
  });
  return out;
}
