import { randomBytes } from 'node:crypto';
import { open, seal } from './aead';
import type { MasterKeyRing } from './master-key-ring';

/**
 * Envelope encryption: each owner (a vault, a deployment) has its own data key; the data key is
 * stored wrapped by a master key and tagged with that key's id, so master keys rotate by
 * re-wrapping data keys only, and destroying a wrapped data key shreds everything under it.
 */
export interface WrappedDataKey {
  keyId: string;
  wrapped: string;
}

export const generateDataKey = (): Buffer => randomBytes(32);

export function wrapDataKey(ring: MasterKeyRing, dataKey: Buffer, ownerId: string): WrappedDataKey {
  return { keyId: ring.activeKeyId, wrapped: seal(ring.key(ring.activeKeyId), dataKey, `data-key:${ownerId}`) };
}

export function unwrapDataKey(ring: MasterKeyRing, wrapped: WrappedDataKey, ownerId: string): Buffer {
  return open(ring.key(wrapped.keyId), wrapped.wrapped, `data-key:${ownerId}`);
}

/** Re-wraps under the active master key; what rotation does to every stored data key. */
export function rewrapDataKey(ring: MasterKeyRing, wrapped: WrappedDataKey, ownerId: string): WrappedDataKey {
  return wrapDataKey(ring, unwrapDataKey(ring, wrapped, ownerId), ownerId);
}

/** Seals a secret under a data key, bound to the record that holds it. */
export const sealSecret = (dataKey: Buffer, secret: string, recordId: string): string =>
  seal(dataKey, secret, `secret:${recordId}`);

export const openSecret = (dataKey: Buffer, sealed: string, recordId: string): string =>
  open(dataKey, sealed, `secret:${recordId}`).toString('utf8');
