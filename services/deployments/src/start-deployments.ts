import { join } from 'node:path';
import type { TenantLanes } from '@shared/bus/tenant-bulkhead';
import { createBatcher } from '@shared/db/batcher';
import { createWriteBatcher } from '@shared/db/write-batcher';
import type { Tenant } from '@shared/schema/tenant';
import { startServiceHost, type ServiceHost, type StartOptions } from '@shared/service-host/service-host';
import { storeDeps } from '@shared/service-host/store-deps';
import { AgentVersions } from './clients/agent-versions';
import { appendedEventsFeed } from './clients/appended-events-feed';
import { followCatalogEvents } from './clients/catalog-event-follower';
import { ReferenceCache } from './clients/reference-cache';
import type { DeploymentsConfig } from './config';
import { insertDeployments, type NewDeployment } from './db/deployments';
import { writeFires, type FireWrite } from './db/record-fires';
import { findDeploymentsAndOccurrenceRuns, type OccurrenceLookup } from './db/runs';
import { appendBatch, type LogAppend } from './db/append-batch';
import { recordNewSessions, type NewSessionRecord } from './db/sessions';
import * as schema from './db/schema';
import { tenantOfRow } from './domain/row-tenant';
import { registerDeploymentHandlers } from './service';

export const DEPLOYMENTS_MIGRATIONS = join(import.meta.dir, '..', 'migrations');

/** Most fires one fire batch serves. */
const MAX_FIRES_PER_BATCH = 100;
/** Fire batches in progress at once per replica and kind: one commits while the next is built. */
const CONCURRENT_FIRE_BATCHES = 2;
/** Most appends one transaction serves (each a few rows and its session's UPDATE). */
const MAX_APPENDS_PER_BATCH = 50;
/** Append batches in progress at once per replica. */
const CONCURRENT_APPEND_BATCHES = 2;

export async function startDeployments(config: DeploymentsConfig, options: StartOptions = {}) {
  const register = (runtime: ServiceHost) => {
    // One reference cache per replica, kept current by the catalog's events it follows.
    const cache = new ReferenceCache(runtime.clock);
    const follower = followCatalogEvents({ nc: runtime.nc, prefix: config.BUS_PREFIX, cache, logger: runtime.logger });
    runtime.onStop(() => follower.stop());
    const shared = storeDeps(runtime);
    const tenantLanes: TenantLanes = (tenantOfItem) => runtime.bulkhead.batchLanes(tenantOfItem);
    // Creates are group-committed: those that arrive while one transaction is written share the
    // next, and their events leave from memory once it commits. A create waiting for its commit
    // has handed its tenant's slot back (it holds no connection): tenants take turns in the
    // batches instead, each with the bulkhead's queue bound.
    const creations = createWriteBatcher(runtime.database.db, insertDeployments, {
      committed: (items) => shared.eventsRecorded(items.map((i) => i.event)),
      logger: runtime.logger,
      ...tenantLanes((item: NewDeployment) => tenantOfRow(item.row)),
    });
    runtime.onStop(() => creations.idle());
    // API sessions alike; their events (sessions.created) leave from memory once the transaction
    // commits (a poke made the relay claim them from the table: a transaction of its own per batch).
    const sessionCreations = createWriteBatcher(
      runtime.database.db,
      async (tx, items: NewSessionRecord[]) => {
        await recordNewSessions(tx, items);
      },
      {
        committed: (items) => shared.eventsRecorded(items.map((i) => i.created)),
        logger: runtime.logger,
        ...tenantLanes((item: NewSessionRecord) => tenantOfRow(item.session)),
      },
    );
    runtime.onStop(() => sessionCreations.idle());
    // Fires too: those in progress at the same moment are read in two statements and written in
    // one transaction (hundreds a second at the scheduler's minute boundary held a pool
    // connection each, which ran the pool dry). At most one fire per deployment in a batch, so
    // each sees what the previous fire of its deployment did; tenants take turns as for creates.
    const fireBatches = {
      maxBatch: MAX_FIRES_PER_BATCH,
      concurrency: CONCURRENT_FIRE_BATCHES,
      keyOf: (item: { id: string }) => item.id,
      ...tenantLanes((item: { tenant: Tenant }) => item.tenant),
    };
    const fires = {
      reader: createBatcher(
        async (lookups: OccurrenceLookup[]) =>
          (await findDeploymentsAndOccurrenceRuns(runtime.database.db, lookups)).map((value) => ({ ok: true as const, value })),
        fireBatches,
      ),
      writer: createBatcher((writes: FireWrite[]) => writeFires(shared, writes), fireBatches),
    };
    // Appends to sessions' logs alike (a turn's send and the runtime's two): at most one per
    // session in a batch, so each goes after what the previous one wrote; two batches at once,
    // one committing while the next is built, as for fires.
    const logAppends = createBatcher((items: LogAppend[]) => appendBatch(runtime.database.db, items, () => runtime.clock.now()), {
      maxBatch: MAX_APPENDS_PER_BATCH,
      concurrency: CONCURRENT_APPEND_BATCHES,
      keyOf: (item) => item.sessionId,
      ...tenantLanes((item: LogAppend) => item.tenant),
    });
    runtime.onStop(() => logAppends.idle());
    registerDeploymentHandlers(runtime.server, {
      ...shared,
      creations,
      sessionCreations,
      announceAppend: appendedEventsFeed(runtime.nc, config.BUS_PREFIX, shared.eventsRecorded),
      logAppends,
      fires,
      agents: new AgentVersions(runtime.client),
      bus: { client: runtime.client, cache },
      masterKeys: config.masterKeys,
      repositoryUrls: { allowHttpUrls: config.ALLOW_HTTP_REPOSITORY_URLS },
      mcpUrls: { allowPrivate: config.ALLOW_PRIVATE_MCP_URLS },
    });
  };
  const host = await startServiceHost('deployments', config, {
    database: { migrationsFolder: DEPLOYMENTS_MIGRATIONS, outbox: schema },
    ...options,
  });
  register(host);
  return host;
}
