/**
 * A cloud session's sandbox cold start: from its work item being queued to its first tool
 * running, through the real parts (MariaDB, NATS, gateway, runtime, one sandbox worker, the SDK's
 * own worker in the sandbox; a local fake Messages API answers at once). Each session's bash
 * prints the wall clock the moment it runs; the item's created_at is when the runtime queued it.
 * Sessions run one after another on one worker, so each one is a cold start (nothing reused).
 * Not part of `bun test`.
 *
 *   bun bench/sandbox-cold-start.ts                       # 10 sessions, bubblewrap, then none
 *   bun bench/sandbox-cold-start.ts --sessions 20 --isolation bubblewrap
 *   bun bench/sandbox-cold-start.ts --packages is-number  # first session installs npm packages
 */
import { parseArgs } from 'node:util';
import { startRuntimeWorld } from '../test/support/runtime-world';
import { runInSandbox } from '../test/support/sandbox-session';
import Anthropic from '@anthropic-ai/sdk';

const { values: flags } = parseArgs({
  args: process.argv.slice(2),
  options: { sessions: { type: 'string', default: '10' }, isolation: { type: 'string' }, packages: { type: 'string' } },
});
const sessions = Number(flags.sessions);
const isolations = flags.isolation ? [flags.isolation] : ['bubblewrap', 'none'];

const world = await startRuntimeWorld();
const handle = { ...world, sdk: (Client: typeof Anthropic = Anthropic) => new Client({ baseURL: world.stack.url, apiKey: world.key, maxRetries: 0 }) };
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

try {
  for (const isolation of isolations) {
    const worker = await world.stack.startSandboxWorker({ SANDBOX_IDLE_MS: '200', SANDBOX_ISOLATION: isolation, LOG_LEVEL: 'error' });
    const environment = flags.packages ? { config: { type: 'cloud', packages: { npm: flags.packages.split(',') } } } : {};
    const queuedToTool: number[] = [];
    const createToTool: number[] = [];
    for (let i = 0; i < sessions; i++) {
      const created = Date.now();
      const run = await runInSandbox(handle, 'echo "tool-started-at $(date +%s%3N)"', environment);
      const started = Number(/tool-started-at (\d+)/.exec(run.output)?.[1]);
      const [item] = (await handle.sdk().beta.environments.work.list(run.environmentId)).data;
      if (!item || !started) throw new Error(`session ${run.sessionId}: no tool output or work item (${run.output})`);
      queuedToTool.push(started - Date.parse(item.created_at));
      createToTool.push(started - created);
    }
    const firstQueued = queuedToTool[0]!;
    const sorted = [...queuedToTool].sort((a, b) => a - b);
    console.log(
      `${isolation}: ${sessions} sessions; work queued -> first tool running: first ${firstQueued} ms, p50 ${percentile(sorted, 50)} ms, p90 ${percentile(sorted, 90)} ms, max ${sorted.at(-1)} ms; session created -> tool: p50 ${percentile([...createToTool].sort((a, b) => a - b), 50)} ms`,
    );
    await worker.stop();
  }
} finally {
  await world.stop();
}
