import { access, mkdir, readFile, rmdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * A session's memory and process limits as the kernel enforces them: a control group of its own
 * (cgroup v2, or v1's memory and pids hierarchies), joined by the session's first process before it
 * becomes the sandbox, so everything the session starts is inside. Breaching memory kills the
 * largest process of the session (a tool's, as a rule: the tool's result says "Killed"), never
 * the worker; breaching pids makes fork fail inside the session. Where this worker may not make
 * control groups (not root, a read-only /sys/fs/cgroup), `probeCgroups` answers undefined and the
 * worker says so at start: processes are then bounded by RLIMIT_NPROC alone and memory by the
 * pod's limit.
 */
export interface SessionCgroup {
  /** cgroup.procs files the session's first process writes its pid into. */
  procsFiles: string[];
  /** Kills what is left in it and removes it. */
  remove(): Promise<void>;
}

export interface Cgroups {
  version: 1 | 2;
  create(name: string, limits: { memoryBytes: number; pids: number }): Promise<SessionCgroup>;
}

const ROOT = '/sys/fs/cgroup';
const PARENT = 'agent-sandboxes';

export async function probeCgroups(root = ROOT): Promise<Cgroups | undefined> {
  const v2 = await exists(join(root, 'cgroup.controllers'));
  try {
    if (v2) {
      const parent = join(root, PARENT);
      await mkdir(parent, { recursive: true });
      // Children of the parent may only limit what the parent hands down.
      await writeFile(join(root, 'cgroup.subtree_control'), '+memory +pids').catch(() => undefined);
      await writeFile(join(parent, 'cgroup.subtree_control'), '+memory +pids');
      return cgroupsV2(parent);
    }
    const memory = join(root, 'memory', PARENT);
    const pids = join(root, 'pids', PARENT);
    await mkdir(memory, { recursive: true });
    await mkdir(pids, { recursive: true });
    return cgroupsV1(memory, pids);
  } catch {
    return undefined;
  }
}

function cgroupsV2(parent: string): Cgroups {
  return {
    version: 2,
    async create(name, limits) {
      const dir = join(parent, name);
      await mkdir(dir);
      await writeFile(join(dir, 'memory.max'), String(limits.memoryBytes));
      await writeFile(join(dir, 'memory.swap.max'), '0').catch(() => undefined);
      await writeFile(join(dir, 'pids.max'), String(limits.pids));
      return { procsFiles: [join(dir, 'cgroup.procs')], remove: () => removeGroup([dir]) };
    },
  };
}

function cgroupsV1(memoryParent: string, pidsParent: string): Cgroups {
  return {
    version: 1,
    async create(name, limits) {
      const memory = join(memoryParent, name);
      const pids = join(pidsParent, name);
      await mkdir(memory);
      await mkdir(pids);
      await writeFile(join(memory, 'memory.limit_in_bytes'), String(limits.memoryBytes));
      await writeFile(join(memory, 'memory.memsw.limit_in_bytes'), String(limits.memoryBytes)).catch(() => undefined);
      await writeFile(join(pids, 'pids.max'), String(limits.pids));
      return { procsFiles: [join(memory, 'cgroup.procs'), join(pids, 'cgroup.procs')], remove: () => removeGroup([memory, pids]) };
    },
  };
}

/** A group can only go empty: what the session left is killed first (its namespace's end usually did that already). */
async function removeGroup(dirs: string[]): Promise<void> {
  for (const dir of dirs) {
    for (let attempt = 0; attempt < 50; attempt++) {
      const pids = (await readFile(join(dir, 'cgroup.procs'), 'utf8').catch(() => '')).split('\n').filter(Boolean).map(Number);
      for (const pid of pids) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // Gone already.
        }
      }
      try {
        await rmdir(dir);
        break;
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') break;
        // EBUSY: a killed process not reaped yet.
        await Bun.sleep(20);
      }
    }
  }
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}
