/**
 * SANDBOX_ISOLATION as an operator meets it, through the real stack and the SDK's own worker:
 * where bubblewrap is missing, a cloud session is refused with a session.error saying why (never
 * run bare); `none` runs it as a plain process (development only), as before the sandbox.
 */
import { expect, test } from 'bun:test';
import { useRuntimeWorld } from '../support/runtime-world';
import { runInSandbox } from '../support/sandbox-session';

const world = useRuntimeWorld();

test('bubblewrap missing: the session fails with a session.error naming it, and the tool never runs', async () => {
  const worker = await world.stack.startSandboxWorker({ SANDBOX_IDLE_MS: '300', SANDBOX_BWRAP: '/nonexistent/bwrap' });
  try {
    const run = await runInSandbox(world, 'echo ran bare', {}, { toolRuns: false });
    const error = run.events.find((e) => e.type === 'session.error') as { error: { message: string } } | undefined;
    expect(error?.error.message).toContain('bubblewrap (/nonexistent/bwrap) is not installed on the sandbox worker');
    expect(run.output).not.toContain('ran bare');
    expect((await worker.metrics.snapshot()).sessions.setup_failed).toBe(1);
  } finally {
    await worker.stop();
  }
}, 120_000);

test('SANDBOX_ISOLATION=none: the session runs as a plain process in a scratch directory of the worker', async () => {
  const worker = await world.stack.startSandboxWorker({ SANDBOX_IDLE_MS: '300', SANDBOX_ISOLATION: 'none' });
  try {
    const run = await runInSandbox(world, 'echo "in $PWD"');
    expect(run.output).toContain(`in ${worker.root}/session-`);
  } finally {
    await worker.stop();
  }
}, 120_000);
