import { describe, expect, test } from 'bun:test';
import {
  idempotencyKeyHash,
  keepsAnswer,
  readIdempotencyKey,
  requestFingerprint,
} from '../../../services/gateway/src/domain/idempotency-key';
import { failureOf } from '../../support/expect';

const headers = (key: string) => new Headers({ 'Idempotency-Key': key });

describe('Idempotency-Key', () => {
  test('read on POST only; absent is no key', () => {
    expect(readIdempotencyKey('POST', headers('order-7'))).toBe('order-7');
    expect(readIdempotencyKey('POST', new Headers())).toBeUndefined();
    for (const method of ['GET', 'DELETE']) expect(readIdempotencyKey(method, headers('\u0001'))).toBeUndefined();
  });

  test('1 to 255 printable ASCII characters, spaces inside included; the 400 names the header', () => {
    expect(readIdempotencyKey('POST', headers('k'.repeat(255)))).toHaveLength(255);
    expect(readIdempotencyKey('POST', headers('a b ~'))).toBe('a b ~');
    const refused = { status: 400, type: 'invalid_request_error', message: 'Idempotency-Key: must be 1 to 255 printable ASCII characters' };
    for (const key of ['k'.repeat(256), 'tab\there', 'caf\u00e9']) expect(failureOf(() => readIdempotencyKey('POST', headers(key)))).toEqual(refused);
  });

  test('the same request is the same method, path with query and body; the key is hashed exactly', () => {
    const body = new TextEncoder().encode('{"name":"a"}');
    const same = requestFingerprint('POST', '/v1/agents?beta=true', body);
    expect(requestFingerprint('POST', '/v1/agents?beta=true', new TextEncoder().encode('{"name":"a"}'))).toBe(same);
    expect(requestFingerprint('POST', '/v1/agents?beta=true', new TextEncoder().encode('{"name":"b"}'))).not.toBe(same);
    expect(requestFingerprint('POST', '/v1/environments?beta=true', body)).not.toBe(same);
    expect(requestFingerprint('POST', '/v1/agents?beta=true', undefined)).not.toBe(same);
    expect(idempotencyKeyHash('k')).not.toBe(idempotencyKeyHash('k '));
    expect(idempotencyKeyHash('k')).toMatch(/^[0-9a-f]{64}$/);
  });

  test('answers kept: what the operation answered, not what a client retries to get another answer', () => {
    for (const status of [200, 400, 403, 404, 413]) expect(keepsAnswer(status)).toBe(true);
    for (const status of [408, 409, 429, 500, 502, 503, 504]) expect(keepsAnswer(status)).toBe(false);
  });
});
