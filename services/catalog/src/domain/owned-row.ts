import { invalidRequest } from '@shared/errors/api-error';

/** Archived resources are frozen: an update of one is refused, in the same words for every kind. */
export function refuseArchived(kind: string, resource: { id: string; archivedAt: Date | null }): void {
  if (resource.archivedAt) throw invalidRequest(`${kind} ${resource.id} is archived and cannot be updated`);
}
