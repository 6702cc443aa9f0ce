import { readdir, readFile } from 'node:fs/promises';
import { dlopen, FFIType, ptr } from 'bun:ffi';
import type { Logger } from '@shared/log/logger';
import { leftoverProcesses, parseProcStat, type ProcessStat } from '../domain/process-tree';

const PR_SET_DUMPABLE = 4;
const PR_SET_CHILD_SUBREAPER = 36;
const WNOHANG = 1;
/** Rounds of finding and killing what a session left: each round catches what forked during the last. */
const SWEEP_ROUNDS = 20;

type Libc = {
  prctl: (option: number, a: bigint, b: bigint, c: bigint, d: bigint) => number;
  waitpid: (pid: number, status: ReturnType<typeof ptr>, options: number) => number;
};
let libc: Libc | undefined;

/** glibc's prctl and waitpid (Linux only; the image is Debian). */
function loadLibc(): Libc {
  libc ??= dlopen('libc.so.6', {
    prctl: { args: [FFIType.i32, FFIType.u64, FFIType.u64, FFIType.u64, FFIType.u64], returns: FFIType.i32 },
    waitpid: { args: [FFIType.i32, FFIType.ptr, FFIType.i32], returns: FFIType.i32 },
  }).symbols as unknown as Libc;
  return libc;
}

/**
 * Sets this process up to host sessions. Non-dumpable (PR_SET_DUMPABLE 0): a session running as
 * the worker's own user (no SANDBOX_RUN_AS_UID) can no longer read its /proc/<pid>/environ (its
 * NATS password) or its memory; execve resets the flag, so the sessions' own processes are as
 * before. A child subreaper (PR_SET_CHILD_SUBREAPER): whatever a session's processes leave behind,
 * detached or not, is re-parented to the worker rather than to init, where endLeftoverProcesses
 * finds and kills it. Where libc or prctl is missing it says so and goes on without.
 */
export function superviseSessions(logger: Logger): void {
  try {
    const { prctl } = loadLibc();
    if (prctl(PR_SET_DUMPABLE, 0n, 0n, 0n, 0n) !== 0) throw new Error('prctl(PR_SET_DUMPABLE) failed');
    if (prctl(PR_SET_CHILD_SUBREAPER, 1n, 0n, 0n, 0n) !== 0) throw new Error('prctl(PR_SET_CHILD_SUBREAPER) failed');
  } catch (err) {
    logger.warn(
      'sessions are not supervised as they should be: this process stays dumpable (a session running as its user could read its environment) and detached leftovers of a session may outlive it; run on Linux with glibc',
      { error: err },
    );
  }
}

async function readProcesses(): Promise<ProcessStat[]> {
  const pids = (await readdir('/proc')).filter((name) => /^\d+$/.test(name));
  const stats = await Promise.all(pids.map((pid) => readFile(`/proc/${pid}/stat`, 'utf8').then(parseProcStat, () => undefined)));
  return stats.filter((s) => s !== undefined);
}

/** A process's start time (clock ticks since boot); undefined when it is gone already. */
export async function processStartTime(pid: number): Promise<number | undefined> {
  return readFile(`/proc/${pid}/stat`, 'utf8').then((text) => parseProcStat(text)?.startTime, () => undefined);
}

/**
 * Kills what a session left running after its process ended (leftoverProcesses), round after
 * round until nothing is left, and reaps them (the worker adopted them; nobody else will).
 * Returns how many it killed.
 */
export async function endLeftoverProcesses(sessionStartTime: number, logger: Logger): Promise<number> {
  const killed = new Set<number>();
  for (let round = 0; round < SWEEP_ROUNDS; round++) {
    const left = leftoverProcesses(process.pid, sessionStartTime, await readProcesses());
    if (left.length === 0) break;
    for (const pid of left) {
      try {
        process.kill(pid, 'SIGKILL');
        killed.add(pid);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ESRCH') logger.error('killing a leftover process failed', { pid, error: err });
      }
    }
    await Bun.sleep(10);
  }
  reap(killed);
  return killed.size;
}

/** Collects the exit status of the given processes, those that are dead; the others are collected by the kernel when this process exits. */
function reap(pids: Iterable<number>): void {
  if (!libc) return;
  const status = new Int32Array(1);
  for (const pid of pids) libc.waitpid(pid, ptr(status), WNOHANG);
}

/** Whether a process of that id exists (EPERM: it does, another user's). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
