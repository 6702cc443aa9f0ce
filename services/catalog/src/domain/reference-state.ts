import type { ReferenceState } from '@shared/schema/references';

/** A referenced resource is usable, archived, or (missing, deleted, another tenant's) not found. */
export function referenceState(resource: { archivedAt: Date | null } | undefined): ReferenceState {
  if (!resource) return 'not_found';
  return resource.archivedAt ? 'archived' : 'ok';
}
