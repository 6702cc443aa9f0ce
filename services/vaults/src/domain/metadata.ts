import { invalidRequest } from '../../../../shared/errors/api-error';
import type { Metadata, MetadataPatch } from '../../../../shared/schema/common';

export const METADATA_MAX_PAIRS = 16;
export const METADATA_MAX_KEY_LENGTH = 64;

/**
 * Key length is checked here because the shared `Metadata` schema is a TypeBox Record, whose
 * key schema compiles to `^(.*)$` and so never enforces the 64-character limit.
 */
export function checkMetadataKeys(metadata: Metadata | MetadataPatch, field = 'metadata'): void {
  for (const key of Object.keys(metadata)) {
    if (key.length === 0 || key.length > METADATA_MAX_KEY_LENGTH) {
      throw invalidRequest(`${field}: keys must be 1 to ${METADATA_MAX_KEY_LENGTH} characters`);
    }
  }
}

/** Metadata of a new resource: the schema checked pairs and values, this checks keys. */
export function newMetadata(metadata: Metadata | undefined): Metadata {
  checkMetadataKeys(metadata ?? {});
  return metadata ?? {};
}

/**
 * Applies a metadata patch: a string upserts its key, null deletes it, keys left out stay.
 * The pair limit holds for the result, so a patch may replace keys on a full map.
 */
export function applyMetadataPatch(current: Metadata, patch: MetadataPatch): Metadata {
  checkMetadataKeys(patch);
  const next: Metadata = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete next[key];
    else next[key] = value;
  }
  if (Object.keys(next).length > METADATA_MAX_PAIRS) {
    throw invalidRequest(`metadata: must have at most ${METADATA_MAX_PAIRS} entries after the update`);
  }
  return next;
}
