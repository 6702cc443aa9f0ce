import type { Model } from '@shared/schema/model';
import type { ResolveReferencesReply, ResolveReferencesRequest } from '@shared/schema/references';
import type { Tenant } from '@shared/schema/tenant';
import type { Clock } from '@shared/time/clock';

/** How long an answer is trusted without hearing of a change: the bound on staleness if events are lost. */
export const REFERENCE_CACHE_TTL_MS = 60_000;
/** References kept per replica, all tenants together; the least recently used tenant's oldest go first. */
export const REFERENCE_CACHE_MAX_ENTRIES = 10_000;

type TenantKey = string;
/** What an 'ok' agent (version) resolved to; environments, files and memory stores need no more than being there. */
type Answer = { version: number; model: Model | null } | true;
interface Entry {
  answer: Answer;
  expiresAt: number;
}

const EMPTY_REPLY: ResolveReferencesReply = { agent: null, environment: null, files: [], memory_stores: [] };

/**
 * The reference cache: one replica's memory of the catalog's answers to `references.resolve`,
 * so that creates and fires of deployments that name the same agents, environments, files and
 * memory stores stop asking the catalog each time.
 *
 * What must stay true:
 * - Only answers in which every reference is usable ('ok') are kept: a reference the catalog
 *   did not find may be created a moment later (a create announces nothing) and must then be
 *   found at once; an archived one is refused by asking anyway.
 * - Any catalog event of a tenant drops all that tenant's entries (followCatalogEvents,
 *   clients/catalog-event-follower.ts): an
 *   archive, a delete, a new agent version. Coarse on purpose: such events are rare, and an
 *   event kind added later invalidates without anyone remembering to list it here.
 * - An answer that was being fetched when entries were dropped is not kept (`epoch`): it may
 *   predate the change the drop was for.
 * - While the event feed is not known to be whole (not yet subscribed, disconnected, a message
 *   dropped) nothing is answered from memory or kept (`live`).
 * - Every entry expires after the TTL, so a lost event costs at most that much staleness.
 */
export class ReferenceCache {
  private readonly tenants = new Map<TenantKey, Map<string, Entry>>();
  private size = 0;
  /** Bumped whenever entries are dropped: a fetch that started before may not store its answer. */
  private epoch = 0;
  private live = false;

  constructor(
    private readonly clock: Clock,
    private readonly limits: { ttlMs: number; maxEntries: number } = {
      ttlMs: REFERENCE_CACHE_TTL_MS,
      maxEntries: REFERENCE_CACHE_MAX_ENTRIES,
    },
  ) {}

  /**
   * Answers a catalog request from memory where it can and asks `ask` about the rest only (not
   * at all when everything is known). The reply covers the request as the catalog's would;
   * a reference `ask` leaves out stays left out (the classifier counts it not found).
   */
  async resolve(
    tenant: Tenant,
    request: ResolveReferencesRequest,
    ask: (missing: ResolveReferencesRequest) => Promise<ResolveReferencesReply>,
  ): Promise<ResolveReferencesReply> {
    const epoch = this.epoch;
    const agent = request.agent ? this.lookup(tenant, agentKey(request.agent.id, request.agent.version)) : undefined;
    const environmentKnown = request.environment_id !== null && this.lookup(tenant, `environment:${request.environment_id}`) === true;
    const knownFiles = new Set(request.file_ids.filter((id) => this.lookup(tenant, `file:${id}`) === true));
    const knownStores = new Set(request.memory_store_ids.filter((id) => this.lookup(tenant, `memory_store:${id}`) === true));
    const missing: ResolveReferencesRequest = {
      agent: request.agent && typeof agent !== 'object' ? request.agent : null,
      environment_id: environmentKnown ? null : request.environment_id,
      file_ids: request.file_ids.filter((id) => !knownFiles.has(id)),
      memory_store_ids: request.memory_store_ids.filter((id) => !knownStores.has(id)),
    };
    const asksNothing =
      missing.agent === null && missing.environment_id === null && missing.file_ids.length + missing.memory_store_ids.length === 0;
    const fresh = asksNothing ? EMPTY_REPLY : await ask(missing);
    if (!asksNothing) this.remember(tenant, missing, fresh, epoch);

    const ok = (id: string) => ({ id, state: 'ok' as const });
    const freshFiles = new Map(fresh.files.map((f) => [f.id, f]));
    const freshStores = new Map(fresh.memory_stores.map((s) => [s.id, s]));
    return {
      agent:
        request.agent && typeof agent === 'object'
          ? { id: request.agent.id, state: 'ok', version: agent.version, model: agent.model }
          : fresh.agent,
      environment: environmentKnown ? ok(request.environment_id!) : fresh.environment,
      files: request.file_ids.flatMap((id) => (knownFiles.has(id) ? [ok(id)] : freshFiles.has(id) ? [freshFiles.get(id)!] : [])),
      memory_stores: request.memory_store_ids.flatMap((id) =>
        knownStores.has(id) ? [ok(id)] : freshStores.has(id) ? [freshStores.get(id)!] : [],
      ),
    };
  }

  /** A catalog event of this tenant: everything known of it may be out of date. */
  forgetTenant(tenant: Pick<Tenant, 'organization_id' | 'workspace_id'>): void {
    const entries = this.tenants.get(tenantKey(tenant));
    this.epoch++;
    if (!entries) return;
    this.size -= entries.size;
    this.tenants.delete(tenantKey(tenant));
  }

  /** An event that names no tenant we can read: forget everyone. */
  forgetAll(): void {
    this.epoch++;
    this.tenants.clear();
    this.size = 0;
  }

  /** The event feed is whole from now on (subscribed, flushed): answers may be kept again. */
  resume(): void {
    this.forgetAll();
    this.live = true;
  }

  /** The event feed may miss events (disconnected, a subscription error): forget and keep nothing. */
  suspend(): void {
    this.forgetAll();
    this.live = false;
  }

  /** Entries held, all tenants together (for tests and metrics). */
  get entries(): number {
    return this.size;
  }

  private lookup(tenant: Tenant, key: string): Answer | undefined {
    if (!this.live) return undefined;
    const tkey = tenantKey(tenant);
    const entries = this.tenants.get(tkey);
    const entry = entries?.get(key);
    if (!entries || !entry) return undefined;
    if (entry.expiresAt <= this.clock.now().getTime()) {
      entries.delete(key);
      this.size--;
      if (entries.size === 0) this.tenants.delete(tkey);
      return undefined;
    }
    // Most recently used last, in both maps: eviction takes from the front.
    this.tenants.delete(tkey);
    this.tenants.set(tkey, entries);
    entries.delete(key);
    entries.set(key, entry);
    return entry.answer;
  }

  /** Keeps a fresh answer if every reference in it is usable and nothing was dropped while it was asked. */
  private remember(tenant: Tenant, asked: ResolveReferencesRequest, reply: ResolveReferencesReply, epoch: number): void {
    if (!this.live || epoch !== this.epoch || !allUsable(asked, reply)) return;
    const expiresAt = this.clock.now().getTime() + this.limits.ttlMs;
    const put = (key: string, answer: Answer) => this.put(tenant, key, { answer, expiresAt });
    if (asked.agent && reply.agent?.version != null) {
      const answer = { version: reply.agent.version, model: reply.agent.model };
      put(agentKey(asked.agent.id, asked.agent.version), answer);
      // The latest version is also that version, which fires of deployments created now will ask about.
      if (asked.agent.version === null) put(agentKey(asked.agent.id, reply.agent.version), answer);
    }
    if (asked.environment_id !== null) put(`environment:${asked.environment_id}`, true);
    for (const id of asked.file_ids) put(`file:${id}`, true);
    for (const id of asked.memory_store_ids) put(`memory_store:${id}`, true);
  }

  private put(tenant: Tenant, key: string, entry: Entry): void {
    const tkey = tenantKey(tenant);
    let entries = this.tenants.get(tkey);
    if (!entries) {
      entries = new Map();
      this.tenants.set(tkey, entries);
    }
    if (entries.has(key)) entries.delete(key);
    else this.size++;
    entries.set(key, entry);
    while (this.size > this.limits.maxEntries) this.evictOne();
  }

  private evictOne(): void {
    const [tkey, entries] = this.tenants.entries().next().value!;
    const [oldest] = entries.keys();
    entries.delete(oldest!);
    this.size--;
    if (entries.size === 0) this.tenants.delete(tkey);
  }
}

/** True when the catalog answered every reference it was asked about, and every one is usable. */
function allUsable(asked: ResolveReferencesRequest, reply: ResolveReferencesReply): boolean {
  if (asked.agent && (reply.agent?.id !== asked.agent.id || reply.agent.state !== 'ok' || reply.agent.version === null)) return false;
  if (asked.environment_id !== null && (reply.environment?.id !== asked.environment_id || reply.environment.state !== 'ok')) {
    return false;
  }
  const usable = (ids: string[], answers: Array<{ id: string; state: string }>) => {
    const ok = new Set(answers.filter((a) => a.state === 'ok').map((a) => a.id));
    return ids.every((id) => ok.has(id));
  };
  return usable(asked.file_ids, reply.files) && usable(asked.memory_store_ids, reply.memory_stores);
}

// JSON of the pair: no organization or workspace id can make two tenants' keys collide.
const tenantKey = (tenant: Pick<Tenant, 'organization_id' | 'workspace_id'>): TenantKey =>
  JSON.stringify([tenant.organization_id, tenant.workspace_id]);
const agentKey = (id: string, version: number | null) => `agent:${id}:${version ?? 'latest'}`;
