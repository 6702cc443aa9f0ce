/**
 * Tenant isolation under a flood (issue 10): tenant A keeps 24 full-page lists of its 12 large
 * deployments (~1.8 MB each: six 262,144-character text blocks) in flight through the real
 * gateway, while tenant B makes 20 sequential small lists. Prints B's status codes and latency
 * percentiles, A's status codes, and the deployments service's resident memory (it runs as its own
 * process here, with the production pool settings; the gateway and the other services run in
 * this process). Not part of `bun test`.
 *
 *   bun bench/tenant-isolation.ts                      # with the per-tenant bulkhead (defaults)
 *   BULKHEAD=off bun bench/tenant-isolation.ts         # TENANT_MAX_CONCURRENCY=1000: no effective limit
 *   FLOOD=24 DEPLOYMENTS=12 B_REQUESTS=20 bun bench/tenant-isolation.ts
 */
import { readFileSync } from 'node:fs';
import { setLogSink } from '@shared/log/logger';
import { apiClient, type ApiResponse } from '../test/support/api';
import { createDeployment, deploymentWorld } from '../test/support/fixtures';
import { Stack } from '../test/support/stack';

const FLOOD = Number(process.env.FLOOD ?? 24);
const DEPLOYMENTS = Number(process.env.DEPLOYMENTS ?? 12);
const B_REQUESTS = Number(process.env.B_REQUESTS ?? 20);
const bulkheadOff = process.env.BULKHEAD === 'off';
const root = new URL('..', import.meta.url).pathname;

setLogSink(() => undefined);
const production = {
  LOG_LEVEL: 'error',
  MYSQL_POOL_SIZE: '10',
  MYSQL_ACQUIRE_TIMEOUT_MS: '3000',
  BUS_TIMEOUT_MS: '5000',
  ...(bulkheadOff ? { TENANT_MAX_CONCURRENCY: '1000', TENANT_MAX_QUEUE: '10000' } : {}),
};
const stack = await Stack.start({ services: ['catalog', 'vaults', 'scheduler'], env: production });
const deployments = Bun.spawn(['bun', 'services/deployments/src/main.ts'], {
  cwd: root,
  env: { ...process.env, ...stack.env('deployments'), HEALTH_PORT: '0' },
  stdout: 'ignore',
  stderr: 'inherit',
});

/** Resident and peak resident memory of the deployments process, in MB. */
function rss(): { now: number; peak: number } {
  const status = readFileSync(`/proc/${deployments.pid}/status`, 'utf8');
  const kb = (field: string) => Number(status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'))?.[1] ?? 0);
  return { now: Math.round(kb('VmRSS') / 1024), peak: Math.round(kb('VmHWM') / 1024) };
}

try {
  const a = apiClient(stack.url, (await stack.createKey()).secret);
  const b = apiClient(stack.url, (await stack.createKey()).secret);
  // The deployments process subscribes asynchronously: wait until it answers.
  for (let i = 0; (await b('GET', '/v1/deployments')).status !== 200; i++) {
    if (i > 200) throw new Error('the deployments service did not come up');
    await Bun.sleep(50);
  }

  const world = await deploymentWorld(a);
  const block = (i: number) => ({ type: 'text', text: String.fromCharCode(97 + (i % 26)).repeat(262_144) });
  const body = world.body({
    initial_events: [{ type: 'user.message', content: Array.from({ length: 6 }, (_, i) => block(i)) }],
  });
  for (let i = 0; i < DEPLOYMENTS; i++) await createDeployment(a, { ...body, name: `large ${i}` });
  const rssBefore = rss();
  console.log(
    `${DEPLOYMENTS} deployments of ${(JSON.stringify(body).length / 1e6).toFixed(2)} MB created for tenant A; ` +
      `bulkhead ${bulkheadOff ? 'OFF (TENANT_MAX_CONCURRENCY=1000)' : 'on (defaults: 8 at once with the pool of 10, queue 200)'}; ` +
      `deployments RSS ${rssBefore.now} MB`,
  );

  // Tenant A: FLOOD lists always in flight until B is done.
  let flooding = true;
  const aStatuses = new Map<number, number>();
  let peakRss = rssBefore.now;
  const flooder = async () => {
    while (flooding) {
      const r: ApiResponse = await a('GET', '/v1/deployments', { query: { limit: '100' } }).catch(() => ({ status: 0 }) as ApiResponse);
      aStatuses.set(r.status, (aStatuses.get(r.status) ?? 0) + 1);
      peakRss = Math.max(peakRss, rss().now);
    }
  };
  const flood = Array.from({ length: FLOOD }, flooder);
  await Bun.sleep(200); // let the flood build up before B starts

  const bStatuses: number[] = [];
  const bLatencies: number[] = [];
  for (let i = 0; i < B_REQUESTS; i++) {
    const started = performance.now();
    const r = await b('GET', '/v1/deployments');
    bLatencies.push(performance.now() - started);
    bStatuses.push(r.status);
    peakRss = Math.max(peakRss, rss().now);
  }
  flooding = false;
  await Promise.all(flood);

  const sorted = [...bLatencies].sort((x, y) => x - y);
  const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!.toFixed(0);
  const counts = (xs: Iterable<[number, number]>) => [...xs].map(([s, n]) => `${s}x${n}`).join(' ');
  const bCounts = new Map<number, number>();
  for (const s of bStatuses) bCounts.set(s, (bCounts.get(s) ?? 0) + 1);
  console.log(`tenant B: statuses ${counts(bCounts)}; latency ms p50 ${pct(50)} p90 ${pct(90)} p100 ${pct(100)}`);
  console.log(`tenant A: statuses ${counts([...aStatuses].sort((x, y) => x[0] - y[0]))}`);
  console.log(`deployments RSS: peak sampled ${peakRss} MB, VmHWM ${rss().peak} MB`);
} finally {
  deployments.kill('SIGTERM');
  await deployments.exited;
  await stack.stop();
}
