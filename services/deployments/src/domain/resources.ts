import { invalidRequest } from '@shared/errors/api-error';
import {
  MOUNT_PATH_RULE,
  SESSION_MEMORY_STORES_MAX,
  MOUNT_ROOTS,
  REPOSITORY_RESOURCE_TYPES,
  type SessionResourceConfig,
  type SessionResourceParams,
} from '@shared/schema/deployment';

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

/**
 * The one spelling of a mount path: empty and `.` segments dropped, so `/x/./y//z/` is `/x/y/z`
 * and paths that name the same directory compare equal. The schema has already refused relative
 * paths, `..` segments and control characters; a `..` met here is refused again rather than
 * resolved, so no path can climb out of where it is mounted. Nested mounts (`/workspace/w` and
 * `/workspace/w/config.json`) are allowed: a file placed inside a checked-out repository is a real use.
 */
export function normaliseMountPath(path: string, field: string): string {
  const segments = path.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (!path.startsWith('/') || segments.includes('..') || /[\u0000-\u001f\u007f]/.test(path)) {
    throw invalidRequest(`${field}: ${MOUNT_PATH_RULE}`);
  }
  return `/${segments.join('/')}`;
}

/**
 * A mount path a new resource may take: normalised, and strictly under one of the product's mount
 * roots (see MOUNT_ROOTS). Checked after normalising, so `//workspace/./x` is `/workspace/x` and
 * `/workspace` or `/workspace/.` (the root itself, which would hide every other mount there) is not.
 * Paths stored before the rule are left as they are: they are compared with normaliseMountPath.
 */
export function claimableMountPath(path: string, field: string): string {
  const normalised = normaliseMountPath(path, field);
  if (!MOUNT_ROOTS.some((root) => normalised.startsWith(`${root}/`))) {
    throw invalidRequest(`${field}: '${normalised.slice(0, 200)}' ${MOUNT_PATH_RULE}`);
  }
  return normalised;
}

export interface RepositoryUrlRules {
  /** `ALLOW_HTTP_REPOSITORY_URLS`: accept plain `http://` repository URLs (private networks). */
  allowHttpUrls: boolean;
}

/**
 * The schema has checked the URL's shape (http or https, a host, no userinfo, no spaces); this
 * checks what the parser makes of it, and the scheme against the service's setting.
 */
export function checkRepositoryUrl(url: string, field: string, rules: RepositoryUrlRules): void {
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  if (!parsed || parsed.hostname === '' || parsed.username !== '' || parsed.password !== '') {
    throw invalidRequest(`${field}: must be an https:// URL with a host and without credentials`);
  }
  if (parsed.protocol === 'https:') return;
  if (parsed.protocol === 'http:' && rules.allowHttpUrls) return;
  throw invalidRequest(`${field}: must be an https:// URL${parsed.protocol === 'http:' ? ' (plain http:// is not allowed)' : ''}`);
}

/** One more memory store mount: at most SESSION_MEMORY_STORES_MAX in a list (the API's limit). */
export function checkMemoryStoreMount(mounted: readonly unknown[], field: string): void {
  if (mounted.length >= SESSION_MEMORY_STORES_MAX) {
    throw invalidRequest(`${field}: a session mounts at most ${SESSION_MEMORY_STORES_MAX} memory stores`);
  }
}

/**
 * Fills in the documented defaults, rejects two resources mounted at the same path, and
 * separates the write-only tokens from what is stored and returned.
 */
export function resolveResources(
  resources: SessionResourceParams[],
  rules: RepositoryUrlRules = { allowHttpUrls: false },
): ResolvedResources {
  const out: ResolvedResources = { configs: [], tokens: [], files: [], memoryStores: [] };
  const mounted = new Map<string, number>();
  /** Stored and returned normalised: the form the duplicate rule compares. */
  const claimMount = (path: string, index: number): string => {
    const normalised = claimableMountPath(path, `resources.${index}.mount_path`);
    const first = mounted.get(normalised);
    if (first !== undefined) {
      throw invalidRequest(`resources.${index}.mount_path: '${normalised.slice(0, 200)}' is already used by resources.${first}`);
    }
    mounted.set(normalised, index);
    return normalised;
  };
  resources.forEach((resource, index) => {
    if (isRepository(resource)) {
      checkRepositoryUrl(resource.url, `resources.${index}.url`, rules);
      let mountPath = resource.mount_path ?? undefined;
      if (mountPath === undefined) {
        const name = repositoryName(resource.url);
        if (!name) {
          throw invalidRequest(`resources.${index}.url: no repository name in the URL to derive a mount path from; set mount_path`);
        }
        mountPath = `/workspace/${name}`;
      }
      mountPath = claimMount(mountPath, index);
      out.configs.push({ type: resource.type, url: resource.url, mount_path: mountPath, checkout: resource.checkout ?? null });
      out.tokens.push({ index, token: resource.authorization_token });
    } else if (resource.type === 'file') {
      const mountPath = claimMount(resource.mount_path ?? `/mnt/session/uploads/${resource.file_id}`, index);
      out.configs.push({ type: 'file', file_id: resource.file_id, mount_path: mountPath });
      out.files.push({ id: resource.file_id, path: `resources.${index}.file_id` });
    } else {
      checkMemoryStoreMount(out.memoryStores, `resources.${index}.memory_store_id`);
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
