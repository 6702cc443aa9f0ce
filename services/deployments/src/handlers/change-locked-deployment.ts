import { tenantOf, type CallContext } from '@shared/bus/call-context';
import type { Deployment } from '@shared/schema/deployment';
import { changeDeploymentUnderLock } from '../db/deployments';
import type { LockedChange } from '../domain/lifecycle';
import { deploymentNotFound } from '../domain/not-found';
import { presentDeployment } from '../domain/present';
import type { DeploymentsDeps } from '../service';
import type { DeploymentRow } from '../db/schema';

/**
 * The step pause, unpause and archive share: the deployment under its row lock, the change
 * (domain/lifecycle.ts) applied with the next revision and its event in the same transaction,
 * or nothing written when the change leaves it as it is (an idempotent repeat). These need
 * nothing from other services, so they lock rather than retry like an update does.
 */
export async function changeLockedDeployment(
  deps: DeploymentsDeps,
  ctx: CallContext,
  id: string,
  change: (row: DeploymentRow, now: Date) => LockedChange | null,
): Promise<Deployment> {
  const now = deps.clock.now();
  const result = await changeDeploymentUnderLock(deps.db, tenantOf(ctx), id, now, change);
  if (!result) throw deploymentNotFound(id);
  if (result.changed) deps.eventsRecorded();
  return presentDeployment(result.row, now);
}
