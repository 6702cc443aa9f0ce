import type { BusClient } from '@shared/bus/bus-client';
import { tenantOf, type CallContext } from '@shared/bus/call-context';
import { agentSubjects } from '@shared/bus/subjects/catalog';
import type { Agent } from '@shared/schema/agent';
import type { SessionAgent } from '@shared/schema/session';

/** Agent versions kept per replica, all tenants together; the least recently used go first. */
export const AGENT_VERSION_CACHE_MAX_ENTRIES = 10_000;

/** The agent version's definition as a session keeps it: the agent resource's own fields (metadata, timestamps) left out. */
export function sessionAgentOf(agent: Agent): SessionAgent {
  const { metadata: _metadata, created_at: _created, updated_at: _updated, archived_at: _archived, ...definition } = agent;
  return definition;
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
  private readonly entries = new Map<string, Promise<SessionAgent>>();

  constructor(
    private readonly bus: BusClient,
    private readonly maxEntries = AGENT_VERSION_CACHE_MAX_ENTRIES,
  ) {}

  get(ctx: CallContext, id: string, version: number): Promise<SessionAgent> {
    const tenant = tenantOf(ctx);
    const key = JSON.stringify([tenant.organization_id, tenant.workspace_id, id, version]);
    const known = this.entries.get(key);
    if (known) {
      // Most recently used last: eviction takes from the front.
      this.entries.delete(key);
      this.entries.set(key, known);
      return known;
    }
    const asked = this.bus.call(agentSubjects.get, ctx, { agent_id: id, version }).then(sessionAgentOf);
    this.entries.set(key, asked);
    asked.catch(() => {
      if (this.entries.get(key) === asked) this.entries.delete(key);
    });
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    return asked;
  }

  /** A session's agent: its snapshot, or for a session stored before snapshots were kept, its version's definition. */
  ofSession(ctx: CallContext, row: { agent: SessionAgent | null; agentId: string; agentVersion: number }): Promise<SessionAgent> {
    return row.agent ? Promise.resolve(row.agent) : this.get(ctx, row.agentId, row.agentVersion);
  }

  /** Entries held (for tests). */
  get size(): number {
    return this.entries.size;
  }
}
