import type { Handler } from '@shared/bus/bus-server';
import { tenantOf, type CallContext } from '@shared/bus/call-context';
import type { deploymentSubjects } from '@shared/bus/subjects/deployments';
import { conflict, found } from '@shared/errors/api-error';
import type { Deployment, DeploymentUpdateRequest } from '@shared/schema/deployment';
import { deploymentEvents } from '@shared/schema/deployment-events';
import type { Tenant } from '@shared/schema/tenant';
import { requireReferences } from '../clients/references';
import { findDeployment, updateDeployment as writeDeployment } from '../db/deployments';
import { planDeploymentUpdate, updatedRow } from '../domain/deployment-update';
import { archivedRefusal } from '../domain/lifecycle';
import { deploymentNotFound } from '../domain/not-found';
import { presentDeployment } from '../domain/present';
import { referenceRefusal } from '../domain/references';
import { sealRepositoryTokens } from '../domain/repository-tokens';
import type { DeploymentsDeps } from '../deps';

/** An update whose row changed under it is re-planned against the new row this many times, then 409. */
const UPDATE_ATTEMPTS = 3;

/**
 * Updates a deployment (the SDK's patch semantics, see DeploymentUpdateRequest), bumps its
 * revision and records `deployments.updated` in the transaction that writes it.
 *
 * It asks the catalog and the vaults service first, outside any transaction, so it writes under
 * an optimistic lock on `revision`: if the row moved meanwhile, the patch is planned again
 * against the new row (what running the two requests one after the other would have done) a
 * few times, then answered with 409. A patch that names no reference and touches no model rule
 * (name, description, metadata, schedule, a cleared list) asks no other service, so it works
 * while they are away.
 */
export const updateDeployment =
  (deps: DeploymentsDeps): Handler<typeof deploymentSubjects.update> =>
  async ({ deployment_id, update }, ctx) => {
    const tenant = tenantOf(ctx);
    for (let attempt = 1; ; attempt++) {
      const result = await tryUpdate(deps, ctx, tenant, deployment_id, update);
      if (result) return result;
      if (attempt >= UPDATE_ATTEMPTS) {
        throw conflict(`deployment '${deployment_id}' was changed by a concurrent request; fetch it and retry`);
      }
    }
  };

/** One attempt; null when the row's revision moved before the write. */
async function tryUpdate(
  deps: DeploymentsDeps,
  ctx: CallContext,
  tenant: Tenant,
  id: string,
  update: DeploymentUpdateRequest,
): Promise<Deployment | null> {
  const row = found(await findDeployment(deps.db, tenant, id), () => deploymentNotFound(id));
  if (row.archivedAt) throw archivedRefusal(id, 'updated');
  const plan = planDeploymentUpdate(row, update, deps.repositoryUrls);
  const { agent } = await requireReferences(deps.bus, ctx, plan.references, referenceRefusal);
  if (plan.references.agent.check) await deps.agents.warm(ctx, agent);

  const sealed = plan.tokens ? sealRepositoryTokens(deps.masterKeys, id, plan.tokens) : null;
  const now = deps.clock.now();
  const next = updatedRow(row, plan, agent, sealed?.dataKey, now);
  const written = await deps.db.transaction((tx) => writeDeployment(tx, row, next, deploymentEvents.updated, sealed?.secrets));
  if (!written) return null;
  deps.eventsRecorded();
  return presentDeployment(next, now);
}
