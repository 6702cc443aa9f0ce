/**
 * Reference-cache benchmark: what one deployment create's reference check costs through the real
 * bus and the real catalog (its own scratch databases and bus prefix), answered by the catalog
 * every time (a cache that never goes live) and then by a live reference cache. Catalog and
 * deployments run in this one process, so the CPU figure is both sides together. Not part of
 * `bun test`.
 *
 *   bun bench/reference-cache.ts            # MYSQL_URL / NATS_URL default to the local servers
 *   N=5000 CONCURRENCY=16 bun bench/reference-cache.ts
 */
import { connect } from '@nats-io/transport-node';
import { systemContext } from '@shared/bus/call-context';
import { deleteStreams } from '@shared/bus/streams';
import { rpcSubject } from '@shared/bus/subject';
import { agentSubjects, environmentSubjects, referenceSubjects } from '@shared/bus/subjects/catalog';
import { dropDatabase } from '@shared/db/connect';
import { randomBase62 } from '@shared/ids/ids';
import { setLogSink } from '@shared/log/logger';
import { systemClock } from '@shared/time/clock';
import { loadCatalogConfig } from '../services/catalog/src/config';
import { startCatalog } from '../services/catalog/src/start-catalog';
import { ReferenceCache } from '../services/deployments/src/clients/reference-cache';
import { askAboutReferences } from '../services/deployments/src/clients/references';
import { loadDeploymentsConfig } from '../services/deployments/src/config';
import type { ReferenceSet } from '../services/deployments/src/domain/references';
import { startDeployments } from '../services/deployments/src/start-deployments';

const N = Number(process.env.N ?? 5_000);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 16);
const MYSQL_URL = process.env.MYSQL_URL ?? 'mysql://root@127.0.0.1:3306';
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';

setLogSink(() => undefined);
const id = randomBase62(8).toLowerCase();
const prefix = `bench${id}`;
const settings = (service: string) => ({
  MYSQL_URL,
  NATS_URL,
  DATABASE_NAME: `bench_${id}_${service}`,
  BUS_PREFIX: prefix,
  HEALTH_PORT: '0',
  LOG_LEVEL: 'error',
});
const tenant = { organization_id: 'org_bench', workspace_id: 'wrkspc_bench', scope: 'read_write' as const, key_id: 'key_bench' };
const ctx = systemContext('req_bench', tenant);

const catalog = await startCatalog(loadCatalogConfig(settings('catalog')));
const deployments = await startDeployments(loadDeploymentsConfig(settings('deployments')));
const probe = await connect({ servers: NATS_URL });
let catalogAsked = 0;
probe.subscribe(rpcSubject(prefix, referenceSubjects.resolve), { callback: () => void catalogAsked++ });
await probe.flush();

try {
  const agent = await deployments.client.call(agentSubjects.create, ctx, { name: 'bench', model: 'claude-opus-4-5' } as never);
  const environment = await deployments.client.call(environmentSubjects.create, ctx, { name: 'bench' } as never);
  // What a create of `{ agent: "<id>", environment_id }` with one user.message checks.
  const refs: ReferenceSet = {
    agent: { id: agent.id, version: null, check: true },
    environment: { id: environment.id, path: 'environment_id' },
    vaults: [],
    files: [],
    memoryStores: [],
    modelRules: { systemMessageAt: undefined, hasBudget: false },
  };

  async function measure(label: string, cache: ReferenceCache) {
    const bus = { client: deployments.client, cache };
    for (let i = 0; i < 200; i++) await askAboutReferences(bus, ctx, refs); // warm-up
    await probe.flush();
    const askedBefore = catalogAsked;
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next++ < N) await askAboutReferences(bus, ctx, refs);
      }),
    );
    const wallMs = performance.now() - started;
    const cpu = process.cpuUsage(cpuBefore);
    await probe.flush();
    const cpuUsPerCheck = (cpu.user + cpu.system) / N;
    console.log(
      `${label.padEnd(28)} ${N} checks, concurrency ${CONCURRENCY}: ${(N / (wallMs / 1000)).toFixed(0)} checks/s, ` +
        `${cpuUsPerCheck.toFixed(1)} µs CPU per check (catalog and deployments together), ` +
        `${((catalogAsked - askedBefore) / N).toFixed(3)} catalog requests per check`,
    );
  }

  // Never resumed: it answers nothing from memory, as before the cache.
  await measure('catalog asked every time', new ReferenceCache(systemClock));
  const live = new ReferenceCache(systemClock);
  live.resume();
  await measure('reference cache', live);
} finally {
  await deleteStreams(probe, prefix);
  await probe.close();
  await deployments.stop();
  await catalog.stop();
  for (const service of ['catalog', 'deployments']) await dropDatabase({ MYSQL_URL, MYSQL_POOL_SIZE: 1 }, `bench_${id}_${service}`).catch(() => undefined);
}
