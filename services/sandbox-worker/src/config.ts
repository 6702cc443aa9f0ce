import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Type } from '@sinclair/typebox';
import { BusServiceConfig, loadConfig } from '@shared/config/load-config';

export const SandboxWorkerConfigSchema = {
  ...BusServiceConfig({ healthPort: 8086 }),
  /**
   * The gateway the sandboxed session reaches the API through (its ANTHROPIC_BASE_URL): the
   * session's events, its work item's heartbeat and stop, with the item's sessions token.
   */
  SANDBOX_GATEWAY_URL: Type.String({ pattern: '^https?://', default: 'http://127.0.0.1:8080' }),
  /** Where each session's fresh scratch directory is made (and removed after it). */
  SANDBOX_ROOT: Type.String({ minLength: 1, default: join(tmpdir(), 'agent-sandboxes') }),
  /**
   * The user and group a session's process runs as, when this worker runs as root (ignored
   * otherwise, with a warning at start). Another uid than the worker's own keeps the session from
   * signalling the worker and from reading what only the worker's user may read.
   */
  SANDBOX_RUN_AS_UID: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647 })),
  /** Defaults to SANDBOX_RUN_AS_UID. */
  SANDBOX_RUN_AS_GID: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647 })),
  /**
   * Longest one session's process may live; then its process group is killed and its work item
   * stopped (not left to lapse, or the next worker would run the same endless tool again). Keep
   * it within the runtime's SESSIONS_TOKEN_TTL_SECONDS: the session's token is no good after that.
   */
  SANDBOX_MAX_LIFETIME_MS: Type.Integer({ minimum: 1000, maximum: 86400000, default: 3600000 }),
  /**
   * How long a session's process stays after the session's turn ends, for a next message to reuse
   * its scratch directory; then it stops the item and exits (the SDK worker's maxIdleMs).
   */
  SANDBOX_IDLE_MS: Type.Integer({ minimum: 0, maximum: 3600000, default: 60000 }),
  /**
   * `bubblewrap`: every session in a sandbox of its own (domain/sandbox-layout.ts), refused when
   * bwrap is missing. `none`: sessions run as plain processes beside the worker, which can then
   * read what the worker reads; development only, and the worker says so loudly at start.
   */
  SANDBOX_ISOLATION: Type.Union([Type.Literal('bubblewrap'), Type.Literal('none')], { default: 'bubblewrap' }),
  /** The bubblewrap program: a name looked up in PATH, or a path. */
  SANDBOX_BWRAP: Type.String({ minLength: 1, default: 'bwrap' }),
  /** A session's memory, its tmpfs directories included (a control group's limit, where the worker may make one). */
  SANDBOX_MEMORY_MB: Type.Integer({ minimum: 64, maximum: 1048576, default: 2048 }),
  /** A session's processes and threads at once. */
  SANDBOX_PIDS_MAX: Type.Integer({ minimum: 16, maximum: 65536, default: 256 }),
  /** Size of each writable directory of a session (/workspace, /tmp, /mnt/session, /mnt/memory), and of its largest file. */
  SANDBOX_DISK_MB: Type.Integer({ minimum: 16, maximum: 1048576, default: 1024 }),
  /** First uid of the sessions' own users (65,536 of them), when the worker runs as root. */
  SANDBOX_UID_BASE: Type.Integer({ minimum: 1000, maximum: 2147418111, default: 200000 }),
  /** The environments' package caches; default `<SANDBOX_ROOT>/packages`. */
  SANDBOX_PACKAGES_ROOT: Type.Optional(Type.String({ minLength: 1 })),
  /** Longest an environment's package install may take before the session is failed. */
  SANDBOX_PACKAGES_TIMEOUT_MS: Type.Integer({ minimum: 1000, maximum: 3600000, default: 600000 }),
  /**
   * The product's own infrastructure, `host` or `host:port`, comma-separated: the egress proxy
   * refuses every address they resolve to (at that port, or all ports). Loopback, link-local and
   * metadata addresses and this machine's own are refused without being named here.
   */
  SANDBOX_EGRESS_DENY_HOSTS: Type.String({ default: '' }),
  /**
   * Internal services sessions may reach although they sit on loopback, link-local or this
   * machine's own addresses (a git server, an MCP server of the operator's): `host:port`,
   * comma-separated, that port only. Never opens what SANDBOX_EGRESS_DENY_HOSTS names.
   */
  SANDBOX_EGRESS_ALLOW_HOSTS: Type.String({ default: '' }),
  /**
   * The CA the egress proxies intercept TLS with, towards the hosts of a session's
   * environment-variable credentials only (PEM files; the key readable by the worker alone).
   * Unset: one is made under SANDBOX_ROOT at start. Give the same pair to every worker of an
   * installation, or each makes its own.
   */
  SANDBOX_INTERCEPTION_CA_CERT: Type.Optional(Type.String({ minLength: 1 })),
  SANDBOX_INTERCEPTION_CA_KEY: Type.Optional(Type.String({ minLength: 1 })),
  /** More CAs (a PEM file) the egress proxy trusts when it connects on to an intercepted host: a mirror's or a corporate proxy's. */
  SANDBOX_UPSTREAM_CA_FILE: Type.Optional(Type.String({ minLength: 1 })),
  /** Names this worker on the items it claims and in logs; unique per replica (the pod name in Kubernetes). */
  SANDBOX_WORKER_ID: Type.String({ pattern: '^[A-Za-z0-9_.:-]{1,80}$', default: `${hostname().slice(0, 60)}-${process.pid}` }),
};

export function loadSandboxWorkerConfig(env: Record<string, string | undefined> = process.env) {
  return loadConfig(SandboxWorkerConfigSchema, env);
}
export type SandboxWorkerConfig = ReturnType<typeof loadSandboxWorkerConfig>;
