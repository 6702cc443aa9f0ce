import { Type } from '@sinclair/typebox';
import { ConfigError } from '../config/load-config';
import { DEVELOPMENT_MASTER_KEYS, isPublishedKey } from './published-development-keys';

/** Configuration of the master keys (Kubernetes Secret in production). */
export const MasterKeyConfig = {
  /** `kid:base64-32-bytes[,kid2:...]`: every key that may still be needed to unwrap. */
  MASTER_KEYS: Type.Optional(Type.String({ minLength: 1 })),
  /** The key id new writes are wrapped with; must be listed in MASTER_KEYS. */
  MASTER_KEY_ID: Type.Optional(Type.String({ minLength: 1 })),
};

export interface MasterKeyRing {
  activeKeyId: string;
  key(id: string): Buffer;
  has(id: string): boolean;
}

export function parseMasterKeyRing(
  config: { MASTER_KEYS?: string; MASTER_KEY_ID?: string; NODE_ENV: string },
): MasterKeyRing {
  if (config.NODE_ENV === 'production' && !config.MASTER_KEYS) {
    throw new ConfigError('Invalid configuration: MASTER_KEYS is required when NODE_ENV=production');
  }
  const keys = new Map<string, Buffer>();
  for (const entry of (config.MASTER_KEYS ?? DEVELOPMENT_MASTER_KEYS).split(',')) {
    const [id, encoded, ...rest] = entry.trim().split(':');
    const key = Buffer.from(encoded ?? '', 'base64');
    if (!id || !/^[A-Za-z0-9_-]{1,32}$/.test(id) || rest.length > 0 || key.length !== 32) {
      throw new ConfigError('Invalid configuration: MASTER_KEYS must be kid:base64(32 bytes)[,kid:...]');
    }
    // Refused even as an old key kept only to unwrap: whatever it wrapped is readable by anyone.
    if (config.NODE_ENV === 'production' && isPublishedKey(key)) {
      throw new ConfigError(
        `Invalid configuration: MASTER_KEYS key '${id}' is a published development key; generate one with \`openssl rand -base64 32\``,
      );
    }
    keys.set(id, key);
  }
  const activeKeyId = config.MASTER_KEY_ID ?? [...keys.keys()][0];
  if (!keys.has(activeKeyId)) {
    throw new ConfigError('Invalid configuration: MASTER_KEY_ID must name a key listed in MASTER_KEYS');
  }
  return {
    activeKeyId,
    has: (id) => keys.has(id),
    key: (id) => {
      const key = keys.get(id);
      if (!key) throw new Error(`master key ${id} is not configured`);
      return key;
    },
  };
}
