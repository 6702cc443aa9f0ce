import type { EventType } from '@shared/bus/event';
import { invalidRequest } from '@shared/errors/api-error';
import { deploymentEvents, type DeploymentSnapshot } from '@shared/schema/deployment-events';
import type { PAUSING_RUN_ERRORS } from '@shared/schema/deployment-run';
import type { DeploymentRow } from '../db/schema';

export type DeploymentEvent = EventType<typeof DeploymentSnapshot>;

/** A deployment as a change leaves it (revision and updated_at are set by the write) and the event to record. */
export interface LockedChange {
  row: DeploymentRow;
  event: DeploymentEvent;
}

/** The one refusal of a change to something archived (a deployment, a session). */
export const archivedRefusal = (id: string, what: string, noun: 'deployment' | 'session' = 'deployment') =>
  invalidRequest(`${noun} '${id}' is archived and cannot be ${what}`);

/** Pausing a paused deployment keeps it as it is, reason included (it says why it stopped). */
export function pauseChange(row: DeploymentRow): LockedChange | null {
  if (row.archivedAt) throw archivedRefusal(row.id, 'paused');
  if (row.status === 'paused') return null;
  return { row: { ...row, status: 'paused', pausedReason: { type: 'manual' } }, event: deploymentEvents.paused };
}

/** Unpausing an active deployment changes nothing. Occurrences missed while paused never fire. */
export function unpauseChange(row: DeploymentRow): LockedChange | null {
  if (row.archivedAt) throw archivedRefusal(row.id, 'unpaused');
  if (row.status === 'active') return null;
  return { row: { ...row, status: 'active', pausedReason: null }, event: deploymentEvents.unpaused };
}

/**
 * One-way; archiving again returns the deployment as it is. An archived deployment reports
 * `active` with `archived_at` set, keeps `last_run_at`, lists no upcoming runs, never fires.
 */
export function archiveChange(row: DeploymentRow, now: Date): LockedChange | null {
  if (row.archivedAt) return null;
  return { row: { ...row, status: 'active', pausedReason: null, archivedAt: now }, event: deploymentEvents.archived };
}

/** A scheduled run that failed with a paused-reason kind pauses its deployment, saying why (see pausesDeployment). */
export function errorPauseChange(row: DeploymentRow, error: { type: (typeof PAUSING_RUN_ERRORS)[number] }): LockedChange {
  return { row: { ...row, status: 'paused', pausedReason: { type: 'error', error: { type: error.type } } }, event: deploymentEvents.paused };
}
