import { invalidRequest } from '../../../../shared/errors/api-error';
import type { Metadata, MetadataPatch } from '../../../../shared/schema/common';

export const METADATA_MAX_PAIRS = 16;

/**
 * Applies a metadata patch: a string upserts its key, null deletes it, keys left out stay.
 * The pair limit holds for the result, so a patch may replace keys on a full map.
 */
export function applyMetadataPatch(current: Metadata, patch: MetadataPatch): Metadata {
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
