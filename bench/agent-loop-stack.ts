/**
 * The stack bench/agent-loop-speed.ts runs its parts on: the real services against
 * bench/caching-messages-api.ts as the model, an agent without tools on a self-hosted environment,
 * an SDK client on its own API key; and what the bench reads with it (a session's event stream
 * as it arrives, the CPU each process spent).
 *
 * In this process, like the tests' stacks; or, with `processes`, each service (the gateway too)
 * in a process of its own as production runs them, so the CPU each one spends is told apart and no
 * service waits on another's event loop (the fake and the clients stay here).
 */
import Anthropic from '@anthropic-ai/sdk';
import { readFileSync } from 'node:fs';
import { apiClient } from '../test/support/api';
import { createAgent, createEnvironment } from '../test/support/fixtures';
import { gatewayPort, spawnReplica, type ServiceProcess } from '../test/support/processes';
import { Stack, type BackendService } from '../test/support/stack';
import { startCachingMessagesApi, wallClock, type Speed } from './caching-messages-api';

export type Model = ReturnType<typeof startCachingMessagesApi>;
export interface Bench {
  stack: Stack;
  model: Model;
  client: Anthropic;
  agentId: string;
  environmentId: string;
  /** CPU ms each process has spent so far (this one as `bench`; MariaDB and NATS are shared with whatever else runs). */
  cpu(): Record<string, number>;
}

export interface BenchOptions {
  speed: Partial<Speed> & { answerTokens: number };
  /** Extra environment for every service. */
  env: Record<string, string>;
  /** Every service in a process of its own. */
  processes: boolean;
}

const BACKEND: BackendService[] = ['catalog', 'deployments', 'vaults', 'runtime'];
/** The processes' settings beyond the stack's: as a development install runs (production's differ in keys and accounts, not in work). */
const RUN_AS_DEPLOYED = { LOG_LEVEL: 'info', NODE_ENV: 'development' };

/** A stack with the runtime, the fake as its model, an agent without tools on a self-hosted environment. */
export async function withBench(options: BenchOptions, body: (bench: Bench) => Promise<void>): Promise<void> {
  const model = startCachingMessagesApi(options.speed);
  const stack = await Stack.start({
    services: BACKEND,
    // The services' production pool size (the stack's own default is 5, for many test files at once).
    env: { LOG_LEVEL: 'error', MYSQL_POOL_SIZE: '10', ...options.env },
    serviceEnv: { runtime: { MODEL_API_BASE_URL: model.url, MODEL_API_KEY: 'sk-bench', ...options.env } },
  });
  const processes: Array<{ name: string; proc: ServiceProcess }> = [];
  try {
    let url = stack.url;
    if (options.processes) {
      // The in-process services made the databases; processes of their own take over from them
      // (at info: a process counts as started when it logs so; they log nothing per request), and
      // not as the tests' (NODE_ENV=test checks every bus reply against its schema, which
      // production does not do).
      for (const name of BACKEND) {
        await stack.stopService(name);
        processes.push({ name, proc: (await spawnReplica(stack, name, RUN_AS_DEPLOYED)).proc });
      }
      const gateway = await spawnReplica(stack, 'gateway', RUN_AS_DEPLOYED);
      processes.push({ name: 'gateway', proc: gateway.proc });
      url = `http://127.0.0.1:${gatewayPort(gateway.line)}`;
    }
    const secret = (await stack.createKey()).secret;
    const api = apiClient(url, secret);
    const agent = await createAgent(api, { model: 'claude-sonnet-5-5', system: 'You answer briefly.', tools: [] });
    const environment = await createEnvironment(api, { config: { type: 'self_hosted' } });
    const client = new Anthropic({ apiKey: secret, baseURL: url, maxRetries: 0 });
    const pids: Record<string, number | undefined> = {
      ...Object.fromEntries(processes.map(({ name, proc }) => [name, proc.pid])),
      mariadb: await pidOf('mariadbd'),
      nats: await pidOf('nats-server'),
    };
    const cpu = () => {
      const spent: Record<string, number> = { bench: (process.cpuUsage().user + process.cpuUsage().system) / 1000 };
      for (const [name, pid] of Object.entries(pids)) if (pid) spent[name] = cpuMsOf(pid);
      return spent;
    };
    await body({ stack, model, client, agentId: agent.id, environmentId: environment.id, cpu });
  } finally {
    for (const { proc } of processes) proc.kill('SIGTERM');
    await Promise.all(processes.map(({ proc }) => proc.exited));
    await stack.stop();
    model.stop();
  }
}

async function pidOf(name: string): Promise<number | undefined> {
  const found = Bun.spawn(['pgrep', '-x', name], { stdout: 'pipe' });
  const out = await new Response(found.stdout).text();
  await found.exited;
  return Number(out.split('\n')[0]) || undefined;
}

/** utime + stime of a process, in ms (clock ticks of 10 ms). */
function cpuMsOf(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/** What each process spent between two `cpu()` readings, per unit (a turn), as one line. */
export function cpuLine(before: Record<string, number>, after: Record<string, number>, units: number): string {
  const parts = Object.keys(after).map((name) => `${name} ${((after[name]! - (before[name] ?? 0)) / units).toFixed(1)}`);
  const total = Object.keys(after).reduce((sum, name) => sum + after[name]! - (before[name] ?? 0), 0);
  return `CPU ms per turn: ${parts.join(', ')}; all ${(total / units).toFixed(1)}`;
}

export type Event = { type: string; [key: string]: unknown };

/** A session's open event stream, read as it arrives; `until` waits for the next event that matches, past the last one matched. */
export function watch(stream: AsyncIterable<unknown>) {
  const seen: Array<{ event: Event; at: number }> = [];
  let wake: () => void = () => undefined;
  let ended = false;
  const reading = (async () => {
    try {
      for await (const event of stream) {
        seen.push({ event: event as Event, at: wallClock() });
        wake();
      }
    } catch {
      // An aborted stream (the bench closing it) ends like any other.
    } finally {
      ended = true;
      wake();
    }
  })();
  let cursor = 0;
  return {
    reading,
    /** Everything the stream brought so far, each with when it came. */
    seen,
    async until(match: (event: Event) => boolean): Promise<{ event: Event; at: number }> {
      for (;;) {
        for (; cursor < seen.length; cursor++) if (match(seen[cursor]!.event)) return seen[cursor++]!;
        if (ended) throw new Error(`the stream ended (last: ${seen.at(-1)?.event.type})`);
        await new Promise<void>((resolve) => (wake = resolve));
      }
    },
  };
}
