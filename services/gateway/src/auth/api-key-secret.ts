import { createHash } from 'node:crypto';
import { randomBase62 } from '@shared/ids/ids';

const KEY_PREFIX = 'sk-agents-';

/** 48 base62 characters: ~285 bits, far beyond guessing, so a fast hash is enough to store it. */
export function generateApiKeySecret(): string {
  return KEY_PREFIX + randomBase62(48);
}

export function hashApiKeySecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Cheap shape check before touching the cache or the database. */
export function looksLikeApiKey(secret: string): boolean {
  return secret.length >= 16 && secret.length <= 256 && /^[\x21-\x7e]+$/.test(secret);
}
