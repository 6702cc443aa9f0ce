/**
 * One session's sandboxed process: the program clients/session-process.ts starts (for
 * handlers/serve-work-item.ts) in the session's fresh scratch directory, with nothing in its
 * environment but its work item (ANTHROPIC_WORK_ID, _ENVIRONMENT_ID, _SESSION_ID,
 * _WORK_SECRET), the gateway (ANTHROPIC_BASE_URL), PATH and HOME. The SDK's own EnvironmentWorker serves the item, unchanged: it heartbeats the
 * item's lease, runs the agent toolset's calls in this directory and sends their results, all
 * through the gateway with the item's sessions token, and stops the item once the session has
 * been idle for --idle-ms after its turn. It ends itself after --lifetime-ms, in case its parent
 * is gone; the parent kills it then anyway.
 */
import Anthropic from '@anthropic-ai/sdk';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { 'idle-ms': { type: 'string' }, 'lifetime-ms': { type: 'string' } } });
const idleMs = Number(values['idle-ms']);
const lifetimeMs = Number(values['lifetime-ms']);

try {
  const client = new Anthropic({ baseURL: process.env.ANTHROPIC_BASE_URL });
  await client.beta.environments.work.worker({ workdir: process.cwd(), maxIdleMs: idleMs }).handleItem({ signal: AbortSignal.timeout(lifetimeMs) });
  process.exit(0);
} catch (err) {
  process.stderr.write(`sandbox session failed: ${(err as Error).message}\n`);
  process.exit(1);
}
