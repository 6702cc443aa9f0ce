import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { sessionEventSubjects } from '@shared/bus/subjects/session-events';
import { found } from '@shared/errors/api-error';
import { requireReferences } from '../clients/references';
import { findSession } from '../db/sessions';
import { eventFileReferences } from '../domain/initial-events';
import { sessionNotFound } from '../domain/not-found';
import { referenceRefusal, type ReferenceSet } from '../domain/references';
import { checkSentEvents, sentEventBodies, toolReferences } from '../domain/session-events';
import type { DeploymentsDeps } from '../deps';

/**
 * Appends a client's events to a session's log. Checked as a deployment's initial events are:
 * the schema (shared/schema/session-event.ts), system.message placement, the files the events
 * use and the model's system-message rule (the catalog, before the transaction, with the session's
 * agent read for it; a send with neither reads the session only under its lock); then, under the
 * session's row lock, the session itself (missing or another tenant's: 404; archived: refused)
 * and the events tool results and confirmations answer. The events get the next sequences, and
 * the `sessions.log_appended` notification is recorded in the same transaction, so every open
 * stream hears of them once they are committed. Group-committed with the appends that arrive
 * meanwhile (db/append-batch.ts).
 *
 * Nothing is invented on the agent's side: with no runtime yet (next issue), the session stays
 * `idle` with the input pending, and no status event is written.
 */
export const sendSessionEvents =
  (deps: DeploymentsDeps): Handler<typeof sessionEventSubjects.send> =>
  async ({ session_id, events }, ctx) => {
    const tenant = tenantOf(ctx);
    const systemMessageAt = checkSentEvents(events);
    const files = eventFileReferences(events, 'events');
    const modelRules = systemMessageAt === undefined ? null : { systemMessageAt, hasBudget: false, eventsField: 'events' };
    if (files.length > 0 || modelRules) {
      // The catalog is asked outside the transaction, about the session's agent: only these
      // events need the row before its lock (most sends do not, and the locked row answers).
      const session = found(await findSession(deps.db, tenant, session_id), () => sessionNotFound(session_id));
      const refs: ReferenceSet = {
        agent: { id: session.agentId, version: session.agentVersion, check: false },
        environment: null,
        vaults: [],
        files,
        memoryStores: [],
        modelRules,
      };
      await requireReferences(deps.bus, ctx, refs, referenceRefusal);
    }
    // The group commit holds one connection for the batch: the wait needs no slot of the tenant's.
    ctx.releaseTenantSlot?.();
    const appended = await deps.logAppends.call({
      appender: 'client',
      tenant,
      sessionId: session_id,
      events: sentEventBodies(events),
      references: toolReferences(events),
    });
    return { data: deps.announceAppend(session_id, appended).events.map(({ event }) => event) };
  };
