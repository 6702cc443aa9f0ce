import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * AES-256-GCM with a fresh random 96-bit nonce per message. The associated data binds a
 * ciphertext to the record it belongs to, so one copied to another row fails to decrypt.
 * Output: base64(nonce | ciphertext | tag).
 */
export function seal(key: Buffer, plaintext: Buffer | string, associatedData: string): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(Buffer.from(associatedData, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([nonce, body, cipher.getAuthTag()]).toString('base64');
}

export class DecryptionError extends Error {
  override name = 'DecryptionError';
}

export function open(key: Buffer, sealed: string, associatedData: string): Buffer {
  const raw = Buffer.from(sealed, 'base64');
  if (raw.length < 28) throw new DecryptionError('ciphertext too short');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
    decipher.setAAD(Buffer.from(associatedData, 'utf8'));
    decipher.setAuthTag(raw.subarray(raw.length - 16));
    return Buffer.concat([decipher.update(raw.subarray(12, raw.length - 16)), decipher.final()]);
  } catch (cause) {
    throw new DecryptionError('ciphertext does not authenticate', { cause });
  }
}
