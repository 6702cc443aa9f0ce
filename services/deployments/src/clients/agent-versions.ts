import type { BusClient } from '@shared/bus/bus-client';
import { tenantOf, type CallContext } from '@shared/bus/call-context';
import { agentSubjects } from '@shared/bus/subjects/catalog';
import type { Multiagent, Spawning } from '@shared/schema/agent-multiagent';
import type { SessionAgent, SessionMultiagent, SessionThreadAgent } from '@shared/schema/session';

/**
 * What the agent versions kept per replica may weigh, all tenants together (their JSON length);
 * the least recently used go first. Bytes, not a count: one version's tools alone may be 1 MiB,
 * so 10,000 entries could have been 10 GB, and one tenant's large agents could take the replica's
 * memory. 64 MiB holds thousands of ordinary versions.
 */
export const AGENT_VERSION_CACHE_MAX_BYTES = 64 * 1024 * 1024;

type AgentRef = { type: 'agent'; id: string; version: number };
type Lookup = (ref: AgentRef) => Promise<SessionThreadAgent>;

/**
 * The agent's `multiagent` as a session keeps it: every agent its roster names replaced by that
 * version's definition (the catalog allows one level, so those have no roster of their own).
 */
async function resolveMultiagent(multiagent: Multiagent, lookup: Lookup): Promise<SessionMultiagent> {
  if (multiagent.type === 'coordinator') {
    return { type: 'coordinator', agents: await Promise.all(multiagent.agents.map((a) => (a.type === 'advisor' ? a : lookup(a)))) };
  }
  const spawning = async (member: Spawning) =>
    member.type === 'enabled' ? { ...member, predefined_agents: await Promise.all(member.predefined_agents.map(lookup)) } : member;
  return { ...multiagent, subagents: await spawning(multiagent.subagents), workflows: await spawning(multiagent.workflows) };
}

/**
 * The definitions of agent versions, asked of the catalog (`catalog.agents.get` with a version)
 * once per replica: a version never changes once written, so an answer is good for ever and
 * needs no event to stay true (unlike the reference cache, which caches what can change). Keyed
 * by tenant as well, so one tenant's answer never serves another. A question in flight is shared
 * by everyone who asks meanwhile (a minute boundary fires many sessions of one deployment's
 * agent at once); a failed one is forgotten, so the next asks again.
 */
export class AgentVersions {
  private readonly entries = new Map<string, { answer: Promise<SessionAgent>; bytes: number }>();
  private bytes = 0;

  constructor(
    private readonly bus: BusClient,
    private readonly maxBytes = AGENT_VERSION_CACHE_MAX_BYTES,
  ) {}

  get(ctx: CallContext, id: string, version: number): Promise<SessionAgent> {
    const tenant = tenantOf(ctx);
    const key = JSON.stringify([tenant.organization_id, tenant.workspace_id, id, version]);
    const known = this.entries.get(key);
    if (known) {
      // Most recently used last: eviction takes from the front.
      this.entries.delete(key);
      this.entries.set(key, known);
      return known.answer;
    }
    const asked = this.fetch(ctx, id, version);
    const entry = { answer: asked, bytes: 0 };
    this.entries.set(key, entry);
    asked.then(
      (agent) => {
        if (this.entries.get(key) !== entry) return;
        entry.bytes = JSON.stringify(agent).length;
        this.bytes += entry.bytes;
        this.evict(key);
      },
      () => {
        if (this.entries.get(key) === entry) this.entries.delete(key);
      },
    );
    return asked;
  }

  /**
   * The version from the catalog, without the agent resource's own fields (metadata,
   * timestamps), its roster resolved through this cache. A roster naming the agent itself
   * (`self`) is answered from this very answer: asking the cache would wait on itself.
   */
  private async fetch(ctx: CallContext, id: string, version: number): Promise<SessionAgent> {
    const agent = await this.bus.call(agentSubjects.get, ctx, { agent_id: id, version });
    const { metadata: _m, created_at: _c, updated_at: _u, archived_at: _a, multiagent, ...definition } = agent;
    const lookup: Lookup = async (ref) => {
      if (ref.id === id && ref.version === version) return definition;
      const { multiagent: _roster, ...thread } = await this.get(ctx, ref.id, ref.version);
      return thread;
    };
    return { ...definition, multiagent: multiagent && (await resolveMultiagent(multiagent, lookup)) };
  }

  /**
   * Learns a version a deployment was just pinned to, so that its fires, like its reference
   * checks (the reference cache), need no catalog while this replica knows everything they use.
   * Best effort: a failure here is no reason to refuse the deployment, and the fire asks again.
   */
  async warm(ctx: CallContext, agent: { id: string; version: number }): Promise<void> {
    await this.get(ctx, agent.id, agent.version).catch(() => undefined);
  }

  /** A session's agent: its snapshot, or for a session stored before snapshots were kept, its version's definition. */
  ofSession(ctx: CallContext, row: { agent: SessionAgent | null; agentId: string; agentVersion: number }): Promise<SessionAgent> {
    return row.agent ? Promise.resolve(row.agent) : this.get(ctx, row.agentId, row.agentVersion);
  }

  /** Drops the least recently used answers until the rest fit; the one just learnt (`keep`) stays whatever it weighs. */
  private evict(keep: string): void {
    for (const [key, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) return;
      if (key === keep) continue;
      this.entries.delete(key);
      this.bytes -= entry.bytes;
    }
  }

  /** Entries held (for tests). */
  get size(): number {
    return this.entries.size;
  }
}
