import type { BusClient } from '@shared/bus/bus-client';
import { tenantOf, type CallContext } from '@shared/bus/call-context';
import { referenceSubjects } from '@shared/bus/subjects/catalog';
import { vaultSubjects } from '@shared/bus/subjects/vaults';
import { isIdOf } from '@shared/ids/ids';
import type { CheckVaultsReply, ResolveReferencesRequest } from '@shared/schema/references';
import type { ApiError } from '@shared/errors/api-error';
import {
  asksOwners,
  classifyReferences,
  referenceIds,
  type ReferenceProblem,
  type ReferenceReplies,
  type ReferenceSet,
  type ReferenceVerdict,
} from '../domain/references';
import type { ReferenceCache } from './reference-cache';

const NOTHING_ASKED: ReferenceReplies = {
  catalog: { agent: null, environment: null, files: [], memory_stores: [] },
  vaults: { vaults: [] },
};

/**
 * The bus as reference checks use it: the client, and this replica's reference cache of the
 * catalog's answers (clients/reference-cache.ts), which the catalog's events keep current.
 */
export interface ReferenceBus {
  client: BusClient;
  cache: ReferenceCache;
}

/**
 * Asks the catalog (`references.resolve`) and the vaults service (`vaults.check`) about a
 * ReferenceSet, one request each, in parallel; the vaults service only when there are vaults,
 * neither when the set names nothing to check. Their bus errors propagate as they are.
 *
 * The catalog is asked through the reference cache: only about what it does not already know
 * to be usable, and not at all when it knows everything. Vaults are always asked: they are
 * cheap to check and the vaults service's events do not cover every change of their state.
 *
 * An id not in the exact form of its kind (`env_… ` with a trailing space, another prefix, the
 * wrong case) names nothing: it is not asked about, and classifyReferences reports it missing,
 * as it does every id a reply leaves out. So no such id reaches a database comparison, where a
 * PAD SPACE collation would match `'env_… '` to `'env_…'`.
 */
export async function askAboutReferences(bus: ReferenceBus, ctx: CallContext, refs: ReferenceSet): Promise<ReferenceReplies> {
  if (!asksOwners(refs)) return NOTHING_ASKED;
  const ids = referenceIds(refs);
  const vault_ids = ids.vault_ids.filter((id) => isIdOf('vault', id));
  const request: ResolveReferencesRequest = {
    agent: isIdOf('agent', ids.agent.id) ? ids.agent : null,
    environment_id: ids.environment_id !== null && isIdOf('environment', ids.environment_id) ? ids.environment_id : null,
    file_ids: ids.file_ids.filter((id) => isIdOf('file', id)),
    memory_store_ids: ids.memory_store_ids.filter((id) => isIdOf('memoryStore', id)),
  };
  const [catalog, vaults] = await Promise.all([
    bus.cache.resolve(tenantOf(ctx), request, (missing) => bus.client.call(referenceSubjects.resolve, ctx, missing)),
    vault_ids.length === 0
      ? Promise.resolve<CheckVaultsReply>({ vaults: [] })
      : bus.client.call(vaultSubjects.check, ctx, { vault_ids }),
  ]);
  return { catalog, vaults };
}

/** The owners' replies about `refs`, classified (domain/references.ts): the agent resolved, or the first problem. */
export async function checkReferences(bus: ReferenceBus, ctx: CallContext, refs: ReferenceSet): Promise<ReferenceVerdict> {
  return classifyReferences(refs, await askAboutReferences(bus, ctx, refs));
}

/** For a request the first problem refuses: throws what `refuse` makes of it, else answers what resolved (the agent, the memory stores' snapshots). */
export async function requireReferences(
  bus: ReferenceBus,
  ctx: CallContext,
  refs: ReferenceSet,
  refuse: (problem: ReferenceProblem) => ApiError,
): Promise<Extract<ReferenceVerdict, { ok: true }>> {
  const verdict = await checkReferences(bus, ctx, refs);
  if (!verdict.ok) throw refuse(verdict.problem);
  return verdict;
}
