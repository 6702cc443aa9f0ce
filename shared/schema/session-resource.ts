import { Type, type Static } from '@sinclair/typebox';
import { Closed, Nullable } from './common';
import { orNull } from './or-null';

/**
 * What a deployment or session mounts: repositories, files and memory stores (the SDK's
 * BetaManagedAgents*ResourceParams and their configs), with their mount paths and limits. Part of
 * the deployment's schema (shared/schema/deployment.ts re-exports it) and the session's.
 */

export const FileId = Type.String({ minLength: 1, maxLength: 128 });

/** `resources` as a whole, as UTF-8 JSON (tokens included): hundreds of ordinary repositories. */
export const RESOURCES_MAX_BYTES = 1024 * 1024;

// ---------------------------------------------------------------------------------------------
// Session resources

export const Checkout = Type.Union(
  [
    Closed({ type: Type.Literal('branch'), name: Type.String({ minLength: 1, maxLength: 255 }) }),
    Closed({ type: Type.Literal('commit'), sha: Type.String({ minLength: 7, maxLength: 64 }) }),
  ],
  { description: 'must be a branch or commit checkout' },
);

/**
 * Absolute, no `..` segment, no control character (NUL, newline, ... would cut or forge the
 * path where a runtime writes or logs it): a mount path cannot climb out of where it is put. The
 * deployments service stores it normalised (`/x/./y//` -> `/x/y`) and compares mounts in that
 * form, and accepts it only strictly under one of `MOUNT_ROOTS` (the product's two mount areas,
 * where its defaults `/workspace/<repo-name>` and `/mnt/session/uploads/<file_id>` live): `/`,
 * `/proc/self`, `/etc` or `/usr/bin` would put a tenant's files over the sandbox's own system.
 */
export const MOUNT_ROOTS = ['/workspace', '/mnt/session'] as const;
export const MOUNT_PATH_RULE =
  'must be an absolute path under /workspace/ or /mnt/session/, without .. segments or control characters';
const MountPath = Type.String({
  minLength: 1,
  maxLength: 4096,
  pattern: '^/(?!(?:[\\s\\S]*/)?\\.\\.(?:/|$))[^\\u0000-\\u001f\\u007f]*$',
  description: MOUNT_PATH_RULE,
});

/**
 * http(s) only, a non-empty host, no userinfo (`user:pass@` would store a credential in clear and
 * echo it), no whitespace or control characters, and no `\\` (URL parsers read it as `/`, so
 * `https://evil\\@github.com` would hide its real host). Whether plain `http://` is allowed is
 * the deployments service's setting (`ALLOW_HTTP_REPOSITORY_URLS`, off by default).
 */
const RepositoryUrl = Type.String({
  minLength: 1,
  maxLength: 2048,
  pattern: '^[Hh][Tt][Tt][Pp][Ss]?://[^/?#@\\\\\\s\\u0000-\\u001f]+(?:[/?#][^\\s\\u0000-\\u001f]*)?$',
  description: 'must be an https:// URL with a host and without credentials, spaces or backslashes',
});

/** `github_repository` is the SDK's name for the same kind; accepted and echoed as sent. */
export const REPOSITORY_RESOURCE_TYPES = ['hosted_repository', 'github_repository'] as const;
const repositoryParams = <K extends (typeof REPOSITORY_RESOURCE_TYPES)[number]>(kind: K) =>
  Closed({
    type: Type.Literal(kind),
    url: RepositoryUrl,
    /** Write-only: stored encrypted, never returned, never logged. */
    authorization_token: Type.String({ minLength: 1, maxLength: 4096 }),
    mount_path: Type.Optional(orNull(MountPath)),
    checkout: Type.Optional(orNull(Checkout, 'must be a branch or commit checkout, or null')),
  });
const repositoryConfig = <K extends (typeof REPOSITORY_RESOURCE_TYPES)[number]>(kind: K) =>
  Closed({ type: Type.Literal(kind), url: Type.String(), mount_path: Type.String(), checkout: Nullable(Checkout) });

export const FileResourceParams = Closed({
  type: Type.Literal('file'),
  file_id: FileId,
  mount_path: Type.Optional(orNull(MountPath)),
});
export const FileResourceConfig = Closed({ type: Type.Literal('file'), file_id: Type.String(), mount_path: Type.String() });

export const MemoryStoreAccess = Type.Union([Type.Literal('read_write'), Type.Literal('read_only')]);
export const MemoryStoreResourceParams = Closed({
  type: Type.Literal('memory_store'),
  memory_store_id: Type.String({
    minLength: 1,
    maxLength: 128,
    pattern: '^memstore_',
    description: 'must be a memory store id (prefix memstore_)',
  }),
  access: Type.Optional(orNull(MemoryStoreAccess, 'must be one of "read_write", "read_only" or null')),
  instructions: Type.Optional(orNull(Type.String({ maxLength: 4096 }))),
});
/**
 * A memory store as mounted. `name`, `description` and `mount_path` are the SDK's output-only
 * snapshot of the store taken when a session attaches it (created, fired, or the resource added):
 * later edits to the store do not reach a running session. A deployment's own list has none of them.
 */
export const MemoryStoreResourceConfig = Closed({
  type: Type.Literal('memory_store'),
  memory_store_id: Type.String(),
  access: MemoryStoreAccess,
  instructions: Nullable(Type.String()),
  name: Type.Optional(Nullable(Type.String())),
  description: Type.Optional(Type.String()),
  mount_path: Type.Optional(Nullable(Type.String())),
});
export type MemoryStoreResourceConfig = Static<typeof MemoryStoreResourceConfig>;

/** Where the SDK's worker mounts a session's memory stores (SDK: "e.g. /mnt/memory/user-preferences"). */
export const MEMORY_MOUNT_ROOT = '/mnt/memory';
/** Most memory stores one session mounts (the API's limit). */
export const SESSION_MEMORY_STORES_MAX = 8;

export const SessionResourceParams = Type.Union(
  [repositoryParams('hosted_repository'), repositoryParams('github_repository'), FileResourceParams, MemoryStoreResourceParams],
  { description: 'must be a hosted_repository, github_repository, file or memory_store resource' },
);
export type SessionResourceParams = Static<typeof SessionResourceParams>;
/** The request's `resources` (create and update). */
/** A request's `resources`: at most 500, bounded as a whole. */
export const SessionResourceParamsList = Type.Array(SessionResourceParams, { maxItems: 500, maxBytes: RESOURCES_MAX_BYTES });
export const SessionResourceConfig = Type.Union([
  repositoryConfig('hosted_repository'),
  repositoryConfig('github_repository'),
  FileResourceConfig,
  MemoryStoreResourceConfig,
]);
export type SessionResourceConfig = Static<typeof SessionResourceConfig>;

