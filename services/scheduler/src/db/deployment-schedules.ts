import { eq } from 'drizzle-orm';
import type { Database } from '@shared/db/connect';
import type { DeploymentSnapshot } from '@shared/schema/deployment-events';
import type { SnapshotChange } from '../domain/snapshot-change';
import { schedules, type ScheduleRow } from './schema';

export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

/** Locks the deployment's row (if any) for the rest of the transaction. */
export async function findScheduleForUpdate(tx: Transaction, deploymentId: string): Promise<ScheduleRow | undefined> {
  const [row] = await tx.select().from(schedules).where(eq(schedules.deploymentId, deploymentId)).for('update');
  return row;
}

/**
 * Stores a snapshot's effect. A replan drops any claim, so a worker still firing the old plan
 * cannot write its result over the new one (its settle matches no row).
 */
export async function storeSnapshotChange(
  tx: Transaction,
  snapshot: DeploymentSnapshot,
  existing: ScheduleRow | undefined,
  change: Exclude<SnapshotChange, { kind: 'stale' }>,
  now: Date,
): Promise<void> {
  const common = {
    organizationId: snapshot.organization_id,
    workspaceId: snapshot.workspace_id,
    revision: snapshot.revision,
    updatedAt: now,
  };
  const values =
    change.kind === 'keep_timing'
      ? common
      : {
          ...common,
          expression: change.schedule?.expression ?? null,
          timezone: change.schedule?.timezone ?? null,
          active: change.active,
          nextOccurrenceAt: change.next?.occurrence ?? null,
          nextFireAt: change.next?.fireAt ?? null,
          claimedBy: null,
          claimUntil: null,
        };
  if (existing) {
    await tx.update(schedules).set(values).where(eq(schedules.deploymentId, snapshot.deployment_id));
  } else {
    // keep_timing needs a stored row, so a first snapshot is always a replan.
    await tx.insert(schedules).values({ active: false, ...values, deploymentId: snapshot.deployment_id });
  }
}
