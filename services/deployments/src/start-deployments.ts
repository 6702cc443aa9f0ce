import { join } from 'node:path';
import type { TenantLanes } from '@shared/bus/tenant-bulkhead';
import { createWriteBatcher } from '@shared/db/write-batcher';
import { startServiceHost, type ServiceHost, type StartOptions } from '@shared/service-host/service-host';
import { storeDeps } from '@shared/service-host/store-deps';
import { AgentVersions } from './clients/agent-versions';
import { followCatalogEvents, ReferenceCache } from './clients/reference-cache';
import type { DeploymentsConfig } from './config';
import { insertDeployments, tenantOfDeployment, type NewDeployment } from './db/deployments';
import { recordNewSessions, type NewSessionRecord } from './db/sessions';
import * as schema from './db/schema';
import { registerDeploymentHandlers } from './service';

export const DEPLOYMENTS_MIGRATIONS = join(import.meta.dir, '..', 'migrations');

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
      ...tenantLanes((item: NewDeployment) => tenantOfDeployment(item.row)),
    });
    runtime.onStop(() => creations.idle());
    // API sessions alike; their events (sessions.created) leave once the transaction commits.
    const sessionCreations = createWriteBatcher(
      runtime.database.db,
      async (tx, items: NewSessionRecord[]) => {
        await recordNewSessions(tx, items);
      },
      {
        committed: () => shared.eventsRecorded(),
        logger: runtime.logger,
        ...tenantLanes((item: NewSessionRecord) => ({
          organization_id: item.session.organizationId,
          workspace_id: item.session.workspaceId,
        })),
      },
    );
    runtime.onStop(() => sessionCreations.idle());
    registerDeploymentHandlers(runtime.server, {
      ...shared,
      creations,
      sessionCreations,
      agents: new AgentVersions(runtime.client),
      tenantLanes,
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
