import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { referenceSubjects } from '@shared/bus/subjects/catalog';
import type { ResolveReferencesReply } from '@shared/schema/references';
import type { CatalogDeps } from '../deps';
import { findAgent } from '../db/agents';
import { findEnvironment } from '../db/environments';
import { findExistingFileIds, findMemoryStoreStates } from '../db/references';
import { referenceState } from '../domain/reference-state';

type S = typeof referenceSubjects.resolve;
/**
 * Everything a deployment refers to, checked in one request with at most four queries (one
 * per kind, IN lists for files and memory stores), run concurrently. Answers keep the order
 * of the request.
 */
export const resolveReferences =
  (deps: CatalogDeps): Handler<S> =>
  async (request, ctx) => {
    const tenant = tenantOf(ctx);
    const [agent, environment, fileIds, memoryStores] = await Promise.all([
      request.agent ? findAgent(deps.db, tenant, request.agent.id, request.agent.version ?? undefined) : undefined,
      request.environment_id ? findEnvironment(deps.db, tenant, request.environment_id) : undefined,
      findExistingFileIds(deps.db, tenant, request.file_ids),
      findMemoryStoreStates(deps.db, tenant, request.memory_store_ids),
    ]);
    const reply: ResolveReferencesReply = {
      agent: request.agent
        ? {
            id: request.agent.id,
            state: referenceState(agent?.agent),
            version: agent?.version.version ?? null,
            model: agent ? (deps.models.find(agent.version.model.id) ?? null) : null,
          }
        : null,
      environment: request.environment_id ? { id: request.environment_id, state: referenceState(environment) } : null,
      files: request.file_ids.map((id) => ({ id, state: fileIds.has(id) ? ('ok' as const) : ('not_found' as const) })),
      memory_stores: request.memory_store_ids.map((id) => {
        const store = memoryStores.get(id);
        return store
          ? { id, state: referenceState(store), name: store.name, description: store.description }
          : { id, state: 'not_found' as const };
      }),
    };
    return reply;
  };
