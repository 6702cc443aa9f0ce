/**
 * An environment's `networking` and `packages`, as a cloud session's bash sees them, through the
 * real stack and the SDK's own worker: the package registry (the one outside host this machine
 * reaches) is reachable under `unrestricted` and under `limited` when allowed, any other host
 * under `limited` is refused by the proxy with its reason, nothing bypasses the proxy, and an
 * npm package of `packages` is installed once and usable; one that does not exist fails the
 * session with a session.error naming it.
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { StackSandboxWorker } from '../support/stack';
import { useRuntimeWorld } from '../support/runtime-world';
import { runInSandbox } from '../support/sandbox-session';

const world = useRuntimeWorld();
let worker: StackSandboxWorker;
beforeAll(async () => {
  worker = await world.stack.startSandboxWorker({ SANDBOX_IDLE_MS: '300' });
}, 60_000);

const REGISTRY = `curl -sS -o /dev/null -w 'registry:%{http_code}\\n' --max-time 20 https://registry.npmjs.org/is-number`;
const ELSEWHERE = `curl -sS -o /dev/null --max-time 20 https://example.com/ 2>&1 | head -c 300; echo`;
const NO_PROXY = `curl -sS -o /dev/null --max-time 5 --noproxy '*' https://registry.npmjs.org/ 2>&1 | head -c 200; echo; echo direct:$?`;
const limited = (network: Record<string, unknown>) => ({ config: { type: 'cloud', networking: { type: 'limited', ...network } } });

describe('networking', () => {
  test('unrestricted: the registry answers through the proxy; nothing goes out without it', async () => {
    const run = await runInSandbox(world, `${REGISTRY}; ${NO_PROXY}`);
    expect(run.output).toContain('registry:200');
    expect(run.output).toMatch(/Could not resolve host|Failed to connect|Network is unreachable/);
  }, 120_000);

  test('limited: a host in allowed_hosts answers; a host outside it is refused by the proxy, naming why', async () => {
    const run = await runInSandbox(world, `${REGISTRY}; ${ELSEWHERE}`, limited({ allowed_hosts: ['registry.npmjs.org'] }));
    expect(run.output).toContain('registry:200');
    expect(run.output).toMatch(/CONNECT tunnel failed, response 403|403/);
  }, 120_000);

  test('limited with no hosts: the registry is refused, unless allow_package_managers lets the package registries out', async () => {
    const closed = await runInSandbox(world, REGISTRY, limited({ allowed_hosts: [] }));
    expect(closed.output).not.toContain('registry:200');
    expect(closed.output).toMatch(/403/);
    const registries = await runInSandbox(world, `${REGISTRY}; ${ELSEWHERE}`, limited({ allow_package_managers: true }));
    expect(registries.output).toContain('registry:200');
    expect(registries.output).toMatch(/403/);
  }, 180_000);
});

describe('packages', () => {
  test('packages.npm: is-number is installed once for the environment and usable from bash; the cache is read-only', async () => {
    const environment = { config: { type: 'cloud', packages: { npm: ['is-number'] } } };
    const run = await runInSandbox(world, `node -e "console.log('is-number says', require('is-number')(5))"; touch /opt/packages/x 2>&1 | head -1`, environment);
    expect(run.isError).toBe(false);
    expect(run.output).toContain('is-number says true');
    expect(run.output).toContain('Read-only file system');
    // A second environment with the same list uses the same cache: one install in all.
    const again = await runInSandbox(world, `node -e "console.log('again', require('is-number')('7'))"`, environment);
    expect(again.output).toContain('again true');
    expect(await readdir(join(worker.root, 'packages'))).toHaveLength(1);
  }, 240_000);

  test('a package that does not exist fails the session with a session.error naming it; the call is answered as failed', async () => {
    const missing = `no-such-package-${Date.now().toString(36)}`;
    const run = await runInSandbox(world, 'echo never runs', { config: { type: 'cloud', packages: { npm: [missing] } } }, { toolRuns: false });
    const error = run.events.find((e) => e.type === 'session.error') as { error: { message: string } } | undefined;
    expect(error?.error.message).toContain(missing);
    expect(error?.error.message).toContain('installing npm packages');
    expect(run.isError).toBe(true);
    expect(run.output).not.toContain('never runs');
    expect(run.events.at(-1)).toMatchObject({ type: 'session.status_idle', stop_reason: { type: 'retries_exhausted' } });
  }, 240_000);
});
