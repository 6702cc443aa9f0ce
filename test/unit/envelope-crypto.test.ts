import { describe, expect, test } from 'bun:test';
import { DecryptionError } from '@shared/crypto/aead';
import { generateDataKey, openSecret, rewrapDataKey, sealSecret, unwrapDataKey, wrapDataKey } from '@shared/crypto/envelope';
import { parseMasterKeyRing } from '@shared/crypto/master-key-ring';

const k = (byte: number) => Buffer.alloc(32, byte).toString('base64');

describe('envelope encryption', () => {
  test('a secret round-trips and is bound to its record', () => {
    const ring = parseMasterKeyRing({ NODE_ENV: 'test', MASTER_KEYS: `a:${k(1)}` });
    const dataKey = generateDataKey();
    const wrapped = wrapDataKey(ring, dataKey, 'vlt_1');
    const sealed = sealSecret(unwrapDataKey(ring, wrapped, 'vlt_1'), 'hunter2', 'vcrd_1');
    expect(sealed).not.toContain('hunter2');
    expect(openSecret(dataKey, sealed, 'vcrd_1')).toBe('hunter2');
    expect(() => openSecret(dataKey, sealed, 'vcrd_2')).toThrow(DecryptionError);
    expect(() => unwrapDataKey(ring, wrapped, 'vlt_2')).toThrow(DecryptionError);
  });

  test('rotation: old keys still unwrap, re-wrapping moves to the new key', () => {
    const old = parseMasterKeyRing({ NODE_ENV: 'test', MASTER_KEYS: `a:${k(1)}` });
    const rotated = parseMasterKeyRing({ NODE_ENV: 'test', MASTER_KEYS: `a:${k(1)},b:${k(2)}`, MASTER_KEY_ID: 'b' });
    const dataKey = generateDataKey();
    const wrapped = wrapDataKey(old, dataKey, 'o');
    expect(unwrapDataKey(rotated, wrapped, 'o').equals(dataKey)).toBe(true);
    const rewrapped = rewrapDataKey(rotated, wrapped, 'o');
    expect(rewrapped.keyId).toBe('b');
    expect(unwrapDataKey(rotated, rewrapped, 'o').equals(dataKey)).toBe(true);
  });

  test('configuration errors name the variable', () => {
    expect(() => parseMasterKeyRing({ NODE_ENV: 'production' })).toThrow('MASTER_KEYS');
    expect(() => parseMasterKeyRing({ NODE_ENV: 'test', MASTER_KEYS: 'a:short' })).toThrow('MASTER_KEYS');
    expect(() => parseMasterKeyRing({ NODE_ENV: 'test', MASTER_KEYS: `a:${k(1)}`, MASTER_KEY_ID: 'zz' })).toThrow('MASTER_KEY_ID');
  });
});
