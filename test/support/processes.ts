/**
 * Services in processes of their own, as production runs them: what an in-process stack cannot
 * show (a module only one process loads, a replica killed outright, a gateway another process
 * serves). A process counts as started when it logs that it did, never after a delay.
 */
import type { Subprocess } from 'bun';
import { join } from 'node:path';
import { entryPoint, runtimeFlags, type ServiceName } from '../../deploy/bin/services';
import type { Stack } from './stack';

export type ServiceProcess = Subprocess<'ignore', 'pipe', 'pipe'>;

const root = join(import.meta.dir, '..', '..');

/** What each process logs once it serves (bus-runtime.ts, start-gateway.ts). */
const STARTED = (service: ServiceName) => (service === 'gateway' ? /gateway listening/ : /service started/);

/**
 * The first line of the process's stdout that matches; fails when the process exits first or
 * nothing matches within `timeoutMs` (the read itself is raced, so a silent process cannot hang).
 */
export async function waitForLine(proc: ServiceProcess, match: RegExp, timeoutMs = 30_000): Promise<string> {
  const reader = proc.stdout.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let timer: Timer | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no line matching ${match} within ${timeoutMs} ms (got: ${buffer.slice(-500)})`)), timeoutMs);
  });
  try {
    for (;;) {
      const { value, done } = await Promise.race([reader.read(), expired]);
      if (done) throw new Error(`exited before a line matching ${match} (got: ${buffer.slice(-500)})`);
      buffer += decoder.decode(value, { stream: true });
      const line = buffer.split('\n').find((l) => match.test(l));
      if (line) return line;
    }
  } finally {
    clearTimeout(timer);
    reader.releaseLock();
  }
}

/**
 * Starts `service`'s entry point in a process of its own with exactly `env` over this process's
 * environment, and returns it with the line saying it started (the gateway's carries its port).
 * Its output is drained afterwards: nobody reads it, and a full pipe would block the process.
 */
export async function startServiceProcess(service: ServiceName, env: Record<string, string | undefined>): Promise<{ proc: ServiceProcess; line: string }> {
  const proc = Bun.spawn(['bun', ...runtimeFlags(service), entryPoint(service)], {
    cwd: root,
    env: { ...process.env, ...env } as Record<string, string>,
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
  });
  try {
    const line = await waitForLine(proc, STARTED(service));
    void proc.stdout.pipeTo(new WritableStream()).catch(() => undefined);
    void proc.stderr.pipeTo(new WritableStream()).catch(() => undefined);
    return { proc, line };
  } catch (err) {
    proc.kill('SIGKILL');
    throw err;
  }
}

/** A replica of `service` in its own process on the stack's databases and bus prefix; `env` adds to the stack's. */
export function spawnReplica(stack: Stack, service: ServiceName, env: Record<string, string> = {}) {
  return startServiceProcess(service, {
    ...stack.env(service),
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    PORT: '0',
    HEALTH_PORT: '0',
    ...env,
  });
}

/** The port a gateway process listens on, from its started line. */
export const gatewayPort = (startedLine: string): number => JSON.parse(startedLine).port;

/** The ids of the processes whose command line is exactly this (pgrep exits 1 when none). */
export async function processesRunning(commandLine: string): Promise<number[]> {
  const found = Bun.spawn(['pgrep', '-f', `^${commandLine}$`], { stdout: 'pipe' });
  const out = await new Response(found.stdout).text();
  await found.exited;
  return out.split('\n').filter(Boolean).map(Number);
}
