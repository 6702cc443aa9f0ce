import type { Static, TSchema } from '@sinclair/typebox';
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { invalidRequest } from '../errors/api-error';
import { canonicalJson } from '../json/canonical-json';
import { PagePosition } from '../schema/common';
import { isValid } from '../validation/validate';

/** What a cursor is bound to: reusing it anywhere else is refused. */
export interface CursorBinding {
  endpoint: string;
  tenant: string;
  filters: Record<string, unknown>;
  limit: number;
}

const INVALID = 'invalid page cursor';

function bindingDigest(binding: CursorBinding): Buffer {
  return createHash('sha256').update(canonicalJson(binding)).digest();
}

/**
 * Cursors are AES-256-GCM sealed positions; the endpoint, tenant, filters and limit are the
 * associated data, so a cursor that was altered, forged, or reused with other filters, another
 * limit, endpoint or tenant fails authentication and is refused.
 */
export function sealCursor(key: Buffer, binding: CursorBinding, position: PagePosition | object): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(bindingDigest(binding));
  const body = Buffer.concat([cipher.update(JSON.stringify(position), 'utf8'), cipher.final()]);
  return Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
}

/** `schema`: what a position of this list is (a creation-time keyset's unless the list says otherwise). */
export function openCursor<S extends TSchema = typeof PagePosition>(key: Buffer, binding: CursorBinding, token: string, schema?: S): Static<S> {
  if (!/^[A-Za-z0-9_-]{40,2048}$/.test(token)) throw invalidRequest(INVALID);
  const raw = Buffer.from(token, 'base64url');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
    decipher.setAAD(bindingDigest(binding));
    decipher.setAuthTag(raw.subarray(raw.length - 16));
    const text = Buffer.concat([decipher.update(raw.subarray(12, raw.length - 16)), decipher.final()]).toString('utf8');
    const position = JSON.parse(text) as unknown;
    if (!isValid(schema ?? PagePosition, position)) throw new Error('bad position');
    return position;
  } catch {
    throw invalidRequest(INVALID);
  }
}
