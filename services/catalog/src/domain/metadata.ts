import { invalidRequest } from '../../../../shared/errors/api-error';
import type { MetadataPatch } from '../../../../shared/schema/common';

export const METADATA_MAX_PAIRS = 16;

/**
 * Metadata on update is a patch: a string upserts, null deletes. The 16-pair limit applies to
 * the result, so a patch may replace keys on a full bag as long as it also deletes some.
 */
export function applyMetadataPatch(current: Record<string, string>, patch: MetadataPatch | null | undefined): Record<string, string> {
  if (!patch) return current;
  const next = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete next[key];
    else next[key] = value;
  }
  if (Object.keys(next).length > METADATA_MAX_PAIRS) {
    throw invalidRequest(`metadata: must have at most ${METADATA_MAX_PAIRS} entries after the update`);
  }
  return next;
}
