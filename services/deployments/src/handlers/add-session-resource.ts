import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { sessionResourceSubjects } from '@shared/bus/subjects/sessions';
import { found } from '@shared/errors/api-error';
import { requireReferences } from '../clients/references';
import { changeSessionResources, findSession, putSessionSecret, updateSession } from '../db/sessions';
import { sessionNotFound } from '../domain/not-found';
import type { MemoryStoreSnapshots, ReferenceSet } from '../domain/references';
import { sealSessionTokens } from '../domain/repository-tokens';
import { attachMemoryStores, planResourceAdd } from '../domain/session-resources';
import { sessionReferenceRefusal } from '../domain/session-update';
import type { DeploymentsDeps } from '../deps';

/**
 * Adds a resource to a session. The resource's own rules and its reference (a file or memory
 * store, checked with its owner as at creation) come first, outside any transaction; then, under
 * the session's lock: not archived, the limit, its mount path not taken, its token sealed under
 * the session's data key (made now if it has none), the list and the mounts written.
 */
export const addSessionResource =
  (deps: DeploymentsDeps): Handler<typeof sessionResourceSubjects.add> =>
  async ({ session_id: id, resource: params }, ctx) => {
    const tenant = tenantOf(ctx);
    const seen = found(await findSession(deps.db, tenant, id), () => sessionNotFound(id));
    const probe = planResourceAdd([], params, deps.repositoryUrls, deps.clock.now());
    const references: ReferenceSet = {
      agent: { id: seen.agentId, version: seen.agentVersion, check: false },
      environment: null,
      vaults: [],
      files: probe.file ? [{ id: probe.file, path: 'file_id' }] : [],
      memoryStores: probe.memoryStore ? [{ id: probe.memoryStore, path: 'memory_store_id' }] : [],
      modelRules: null,
    };
    let snapshots: MemoryStoreSnapshots = new Map();
    if (probe.file || probe.memoryStore) {
      snapshots = (await requireReferences(deps.bus, ctx, references, sessionReferenceRefusal)).memoryStores;
    }
    const added = await changeSessionResources(deps.db, tenant, id, 'changed', async (tx, row, resources) => {
      const now = deps.clock.now();
      const planned = planResourceAdd(resources, params, deps.repositoryUrls, now);
      const [resource] = attachMemoryStores([planned.resource], snapshots, resources);
      const token = planned.token;
      const existingKey = row.dataKeyId && row.dataKeyWrapped ? { keyId: row.dataKeyId, wrapped: row.dataKeyWrapped } : null;
      const sealed = sealSessionTokens(deps.masterKeys, row.id, token ? [{ resourceId: resource.id, token }] : [], existingKey);
      await updateSession(tx, row, {
        resources: [...resources, resource],
        dataKeyId: sealed.dataKey?.keyId ?? null,
        dataKeyWrapped: sealed.dataKey?.wrapped ?? null,
        updatedAt: now,
      });
      for (const secret of sealed.secrets) await putSessionSecret(tx, row.id, secret.resourceId, secret.sealed);
      return resource;
    });
    return added;
  };
