import { access, mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { lookup } from 'node:dns/promises';
import type { Logger } from '@shared/log/logger';
import type { SandboxWorkerConfig } from '../config';
import { parseHostPort, type ClosedAddresses } from '../domain/egress-rules';
import { findBubblewrap, readSystemPaths } from './bubblewrap';
import { probeCgroups } from './cgroups';
import { prepareInterception } from './interception';
import { packageCache, type PackageCache } from './package-cache';
import { processAlive } from './process-control';
import type { SandboxHost } from './sandbox';
import { POOL_SIZE, type UidPool } from './uid-pool';
import { mappedFrom } from '../domain/uid-map';

/**
 * How this worker isolates sessions, settled once at start: `bubblewrap` with everything a
 * sandbox needs (the bundled session program, the host's system paths, control groups where it
 * may make them, the addresses no session reaches, the package caches); `unavailable` when
 * SANDBOX_ISOLATION asks for bubblewrap and it is not installed (every cloud session is then
 * failed with a session.error saying why, never run bare); `none` when the operator said so.
 */
export type Isolation =
  | { kind: 'none' }
  | { kind: 'unavailable'; reason: string }
  | { kind: 'bubblewrap'; host: SandboxHost; packages: PackageCache; program: string; bun: string };

const SESSION_PROGRAM = join(import.meta.dir, 'session-program.ts');
/** Where Debian/Ubuntu, Fedora/RHEL and Alpine keep the system's CA bundle. */
const CA_BUNDLES = ['/etc/ssl/certs/ca-certificates.crt', '/etc/pki/tls/certs/ca-bundle.crt', '/etc/ssl/cert.pem'];

export async function prepareIsolation(config: SandboxWorkerConfig, logger: Logger): Promise<Isolation> {
  if (config.SANDBOX_ISOLATION === 'none') {
    logger.warn(
      'SANDBOX_ISOLATION=none: cloud sessions run WITHOUT a sandbox, as plain processes beside this worker; their tools can read what this worker reads and reach what it reaches. Development only.',
    );
    return { kind: 'none' };
  }
  const bubblewrap = findBubblewrap(config.SANDBOX_BWRAP);
  if (!bubblewrap) {
    const reason = `bubblewrap (${config.SANDBOX_BWRAP}) is not installed on the sandbox worker`;
    logger.error(`${reason}: cloud sessions are refused until it is (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap), or SANDBOX_ISOLATION=none is set for development`);
    return { kind: 'unavailable', reason };
  }
  const program = await bundleSessionProgram(config.SANDBOX_ROOT);
  const cgroups = await probeCgroups();
  const root = process.getuid?.() === 0;
  if (!cgroups) logger.warn('no control groups can be made here: sessions are not held to SANDBOX_MEMORY_MB, and SANDBOX_PIDS_MAX holds only where sessions get uids of their own (a worker running as root)');
  if (!root) logger.warn('the worker does not run as root: every session runs as its uid, in namespaces of its own');
  const caBundle = await firstPresent(CA_BUNDLES);
  const host: SandboxHost = {
    bwrap: bubblewrap.path,
    root: config.SANDBOX_ROOT,
    logger,
    system: await readSystemPaths(),
    cgroups,
    closed: await closedAddresses(config, logger),
    caBundle,
    interception: await prepareInterception({
      root: config.SANDBOX_ROOT,
      caCert: config.SANDBOX_INTERCEPTION_CA_CERT,
      caKey: config.SANDBOX_INTERCEPTION_CA_KEY,
      systemBundle: caBundle,
      upstreamCaFile: config.SANDBOX_UPSTREAM_CA_FILE,
    }),
    uids: root ? await uidPool(config.SANDBOX_UID_BASE, logger) : undefined,
    limits: { memoryBytes: config.SANDBOX_MEMORY_MB * 2 ** 20, pids: config.SANDBOX_PIDS_MAX, diskBytes: config.SANDBOX_DISK_MB * 2 ** 20 },
  };
  const packages = packageCache(host, {
    root: config.SANDBOX_PACKAGES_ROOT ?? join(config.SANDBOX_ROOT, 'packages'),
    program,
    bun: process.execPath,
    timeoutMs: config.SANDBOX_PACKAGES_TIMEOUT_MS,
  });
  logger.info('sessions run in bubblewrap sandboxes', { bubblewrap: bubblewrap.version, cgroups: cgroups?.version ?? 'none', per_session_uid: root });
  return { kind: 'bubblewrap', host, packages, program, bun: process.execPath };
}

/** The session program and the SDK, as one file a sandbox can run without the checkout. */
async function bundleSessionProgram(root: string): Promise<string> {
  const dir = join(root, '.program');
  await mkdir(dir, { recursive: true, mode: 0o755 });
  // Each worker bundles its own (workers of one machine share SANDBOX_ROOT); those of workers gone go.
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const pid = Number(/^session-program-(\d+)\.js$/.exec(name)?.[1]);
    if (pid && pid !== process.pid && !processAlive(pid)) await rm(join(dir, name), { force: true });
  }
  const built = await Bun.build({ entrypoints: [SESSION_PROGRAM], target: 'bun', outdir: dir, naming: `session-program-${process.pid}.js` });
  if (!built.success) throw new Error(`bundling the session program failed: ${built.logs.map(String).join('; ')}`);
  return built.outputs[0]!.path;
}

/**
 * The uids from `base` this process's user namespace maps (a pod with `hostUsers: false` maps
 * 65,536 of them): a uid it does not map cannot be switched to. None mapped: sessions share the
 * worker's uid, said at start.
 */
async function uidPool(base: number, logger: Logger): Promise<UidPool | undefined> {
  const map = await readFile('/proc/self/uid_map', 'utf8').catch(() => '0 0 4294967295');
  const size = mappedFrom(base, map, POOL_SIZE);
  if (size === 0) logger.warn('SANDBOX_UID_BASE is outside the uids this worker\'s user namespace maps: sessions run as the worker\'s uid', { uid_base: base, uid_map: map.trim() });
  return size > 0 ? { base, size } : undefined;
}

async function firstPresent(paths: readonly string[]): Promise<string | undefined> {
  for (const path of paths) if (await access(path).then(() => true, () => false)) return path;
  return undefined;
}

async function closedAddresses(config: Pick<SandboxWorkerConfig, 'SANDBOX_EGRESS_DENY_HOSTS' | 'SANDBOX_EGRESS_ALLOW_HOSTS'>, logger: Logger): Promise<ClosedAddresses> {
  const local = Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((a) => a.address));
  const denied = await resolveEntries('SANDBOX_EGRESS_DENY_HOSTS', config.SANDBOX_EGRESS_DENY_HOSTS, logger);
  const opened = (await resolveEntries('SANDBOX_EGRESS_ALLOW_HOSTS', config.SANDBOX_EGRESS_ALLOW_HOSTS, logger)).flatMap((e) =>
    e.port === undefined ? (logger.warn('a SANDBOX_EGRESS_ALLOW_HOSTS entry names no port: it opens nothing', { address: e.address }), []) : [{ address: e.address, port: e.port }],
  );
  return { local, denied, opened };
}

async function resolveEntries(setting: string, entries: string, logger: Logger): Promise<{ address: string; port?: number }[]> {
  const resolved: { address: string; port?: number }[] = [];
  for (const entry of entries.split(',').map((e) => e.trim()).filter(Boolean)) {
    const { host, port } = parseHostPort(entry);
    try {
      for (const { address } of await lookup(host, { all: true })) resolved.push({ address, port });
    } catch (err) {
      logger.warn(`a ${setting} entry does not resolve now: it is left out`, { host, error: err });
    }
  }
  return resolved;
}
