import { invalidRequest, withErrorCode } from '@shared/errors/api-error';

/**
 * Archived resources are frozen: an update of one is refused, in the same words for every kind,
 * with the `error_code` the SDK declares for that kind where it declares one.
 */
export function refuseArchived(kind: string, resource: { id: string; archivedAt: Date | null }, errorCode?: string): void {
  if (!resource.archivedAt) return;
  const error = invalidRequest(`${kind} ${resource.id} is archived and cannot be updated`);
  throw errorCode ? withErrorCode(error, errorCode) : error;
}
