import { invalidRequest, withErrorCode } from '../errors/api-error';
import { METADATA_MAX_PAIRS, type Metadata, type MetadataPatch } from '../schema/common';

/** Whether a field path (`metadata`, `metadata.owner`) is a resource's metadata. */
export const isMetadataField = (field: string) => field === 'metadata' || field.startsWith('metadata.');

/** A metadata 400, with the `error_code` SDK 1.x raises `BetaInvalidMetadataError` on. */
export const invalidMetadata = (message: string) => withErrorCode(invalidRequest(message), 'invalid_metadata');

/**
 * Metadata on update is a patch: a string upserts its key, null deletes it, keys left out stay.
 * The 16-pair limit applies to the result, so a patch may replace keys on a full map as long as
 * it also deletes some. Key and value lengths are the schema's (`Metadata`, `MetadataPatch`).
 */
export function applyMetadataPatch(current: Metadata, patch: MetadataPatch | null | undefined): Metadata {
  if (!patch) return current;
  const next: Metadata = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete next[key];
    // Defined, not assigned: assigning `__proto__` would change the object's prototype and the
    // key would silently vanish. Keys are client text; every one is stored as given.
    else Object.defineProperty(next, key, { value, enumerable: true, writable: true, configurable: true });
  }
  if (Object.keys(next).length > METADATA_MAX_PAIRS) {
    throw invalidMetadata(`metadata: must have at most ${METADATA_MAX_PAIRS} entries after the update`);
  }
  return next;
}
