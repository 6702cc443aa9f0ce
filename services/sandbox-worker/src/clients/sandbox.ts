import { chmod, chown, mkdtemp } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { Logger } from '@shared/log/logger';
import type { ClosedAddresses, EgressScope } from '../domain/egress-rules';
import { INSIDE, trustEnvironment, type SandboxLayout, type SystemPath } from '../domain/sandbox-layout';
import { spawnSandbox } from './bubblewrap';
import type { Cgroups, SessionCgroup } from './cgroups';
import { startEgressProxy, type EgressProxy, type EgressProxyOptions } from './egress-proxy';
import type { Interception } from './interception';
import { removeScratch } from './session-process';
import { leaseUid, type UidLease, type UidPool } from './uid-pool';

/**
 * One sandbox's life on the host: a uid leased for it (a worker running as root), a host
 * directory of its own holding the egress proxy's socket, the proxy (its networking), a control
 * group (its limits), the bwrap process; `close` undoes all of it. The session and a package
 * install are both run this way (clients/session-process.ts, clients/package-cache.ts).
 */
export interface SandboxHost {
  /** The bwrap program found at start. */
  bwrap: string;
  root: string;
  logger: Logger;
  system: readonly SystemPath[];
  cgroups: Cgroups | undefined;
  closed: ClosedAddresses;
  /** The system's CA bundle (under /etc, which every sandbox sees), when there is one. */
  caBundle: string | undefined;
  /** The interception CA and the bundle the sandboxes trust with it (clients/interception.ts). */
  interception: Interception;
  /** The sessions' uids when this worker runs as root (and its user namespace maps them); undefined otherwise. */
  uids: UidPool | undefined;
  limits: { memoryBytes: number; pids: number; diskBytes: number };
}

export interface SandboxSpec {
  scope: EgressScope;
  env: Record<string, string>;
  command: string[];
  readOnly?: SandboxLayout['readOnly'];
  writable?: SandboxLayout['writable'];
  stdout?: 'pipe' | 'ignore';
  /**
   * Puts what the sandbox mounts in place before it starts, in the sandbox's host directory (its
   * own, removed with it) for its uid; answers the binds to add.
   */
  prepare?: (dir: string, uid: number | undefined) => Promise<Pick<SandboxLayout, 'readOnly' | 'writable'>>;
  /** For the proxy: a credential's authorization as it is now (clients/egress-proxy.ts). */
  currentAuthorization?: EgressProxyOptions['currentAuthorization'];
}

export interface RunningSandbox {
  process: ReturnType<typeof spawnSandbox>;
  uid: number | undefined;
  close(): Promise<void>;
}

export async function startSandbox(host: SandboxHost, spec: SandboxSpec): Promise<RunningSandbox> {
  const undo: Array<() => Promise<unknown>> = [];
  const close = async () => {
    for (const step of undo.reverse()) await step().catch((err) => host.logger.error('tearing a sandbox down failed', { error: err }));
  };
  try {
    let lease: UidLease | undefined;
    if (host.uids) {
      lease = await leaseUid(host.root, host.uids);
      undo.push(lease.release);
    }
    const dir = await mkdtemp(join(host.root, 'session-'));
    undo.push(() => removeScratch(dir));
    if (lease) await chown(dir, lease.uid, lease.uid);
    await chmod(dir, 0o700);
    const socketPath = join(dir, 'egress.sock');
    const proxy: EgressProxy = await startEgressProxy({
      socketPath,
      scope: spec.scope,
      closed: host.closed,
      logger: host.logger,
      interception: host.interception,
      currentAuthorization: spec.currentAuthorization,
    });
    undo.push(() => proxy.close());
    if (lease) await chown(socketPath, lease.uid, lease.uid);
    let cgroup: SessionCgroup | undefined;
    if (host.cgroups) {
      cgroup = await host.cgroups.create(randomUUID(), host.limits);
      undo.push(() => cgroup!.remove());
    }
    const prepared = spec.prepare ? await spec.prepare(dir, lease?.uid) : { readOnly: [], writable: [] };
    const layout: SandboxLayout = {
      system: host.system,
      diskBytes: host.limits.diskBytes,
      readOnly: [...trustedBundle(host), ...(spec.readOnly ?? []), ...prepared.readOnly],
      writable: [{ host: socketPath, inside: INSIDE.egressSocket }, ...(spec.writable ?? []), ...prepared.writable],
      env: { ...trustEnvironment(INSIDE.caBundle), ...spec.env, SANDBOX_EGRESS_SOCKET: INSIDE.egressSocket },
      command: spec.command,
    };
    const child = spawnSandbox({ bwrap: host.bwrap, layout, uid: lease?.uid, cgroup, pids: host.limits.pids, stdout: spec.stdout });
    undo.push(async () => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // The group is gone already.
      }
      await child.exited;
    });
    return { process: child, uid: lease?.uid, close };
  } catch (err) {
    await close();
    throw err;
  }
}

/** The sandbox trusts the system's CAs and the interception CA: the bundle at its own path, and over the system's where there is one. */
function trustedBundle(host: SandboxHost): { host: string; inside: string }[] {
  const bundle = host.interception.bundle;
  return [{ host: bundle, inside: INSIDE.caBundle }, ...(host.caBundle ? [{ host: bundle, inside: host.caBundle }] : [])];
}
