import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { sessionSubjects } from '@shared/bus/subjects/sessions';
import { newId } from '@shared/ids/ids';
import { requireReferences } from '../clients/references';
import { presentSession } from '../domain/present';
import { sealSessionTokens } from '../domain/repository-tokens';
import { attachMemoryStores } from '../domain/session-resources';
import { newSessionRow, planSessionCreate, sessionFromRequest, tokenResourceIds } from '../domain/session-create';
import { sessionReferenceRefusal } from '../domain/session-update';
import { sessionCreatedEnvelope } from '../db/sessions';
import type { DeploymentsDeps } from '../deps';

/**
 * Creates a session (`POST /v1/sessions`): the request's own rules (the deployment's, for events
 * and resources), its references asked of their owners exactly as a deployment's create asks
 * them (the first problem is a 404 or 400 naming the field), the agent version's definition from
 * the replica's cache of immutable versions, then the row, its sealed tokens, `sessions.created`
 * and its initial events in one transaction (db/sessions.ts recordNewSessions, the fire's write
 * too), shared with the creates that arrive meanwhile (`deps.sessionCreations`).
 */
export const createSession =
  (deps: DeploymentsDeps): Handler<typeof sessionSubjects.create> =>
  async (request, ctx) => {
    const plan = planSessionCreate(request, deps.repositoryUrls);
    const { agent: resolved, memoryStores } = await requireReferences(deps.bus, ctx, plan.references, sessionReferenceRefusal);
    const agent = await deps.agents.get(ctx, resolved.id, resolved.version);

    // Write-only tokens: sealed under this session's own data key, bound to their resources' ids.
    const id = newId('session');
    const { dataKey, secrets } = sealSessionTokens(deps.masterKeys, id, tokenResourceIds(id, plan.tokens), null);
    const attached = { ...plan, resources: attachMemoryStores(plan.resources, memoryStores) };
    const row = newSessionRow(id, sessionFromRequest(tenantOf(ctx), request, attached, agent, dataKey), deps.clock.now());
    // The group commit holds one connection for the batch: the wait needs no slot of the tenant's.
    ctx.releaseTenantSlot?.();
    await deps.sessionCreations.write({ session: row, run: null, secrets, created: sessionCreatedEnvelope(row, null) });
    return presentSession(row, agent);
  };
