import { expect, test } from 'bun:test';
import { contentLength, placeholderEnvironment, substituteBody, substituteHeaders, substitutionsFor, withContentLength, withPlaceholders } from '../../../services/sandbox-worker/src/domain/secret-substitution';

const [token, anywhere] = withPlaceholders([
  { name: 'API_TOKEN', value: 'real-1', hosts: ['api.example.com', '*.example.org'], header: true, body: false },
  { name: 'OTHER', value: 'real-2', hosts: null, header: false, body: true },
]);

test('each variable gets a random placeholder; inside, the environment holds only those', () => {
  expect(token!.placeholder).toMatch(/^sandbox-secret-[0-9a-f]{32}$/);
  expect(withPlaceholders([{ name: 'A', value: 'v', hosts: null, header: true, body: true }])[0]!.placeholder).not.toBe(token!.placeholder);
  expect(placeholderEnvironment([token!, anywhere!])).toEqual({ API_TOKEN: token!.placeholder, OTHER: anywhere!.placeholder });
});

test("a credential applies to its hosts only (any host without a list)", () => {
  expect(substitutionsFor('api.example.com', [token!, anywhere!]).map((s) => s.name)).toEqual(['API_TOKEN', 'OTHER']);
  expect(substitutionsFor('a.example.org', [token!]).map((s) => s.name)).toEqual(['API_TOKEN']);
  expect(substitutionsFor('evil.test', [token!, anywhere!]).map((s) => s.name)).toEqual(['OTHER']);
});

test('headers get the value in header values only (never the request line); bodies where the credential allows', () => {
  const head = Buffer.from(`GET /?q=${token!.placeholder} HTTP/1.1\r\nAuthorization: Bearer ${token!.placeholder}\r\nX-Other: ${anywhere!.placeholder}\r\n\r\n`);
  const out = substituteHeaders(head, [token!, anywhere!]).toString();
  expect(out).toContain(`GET /?q=${token!.placeholder} HTTP/1.1`);
  expect(out).toContain('Authorization: Bearer real-1');
  // OTHER goes into bodies only.
  expect(out).toContain(`X-Other: ${anywhere!.placeholder}`);
  expect(substituteBody(Buffer.from(`a=${anywhere!.placeholder}&b=${token!.placeholder}&c=${anywhere!.placeholder}`), [token!, anywhere!]).toString()).toBe(`a=real-2&b=${token!.placeholder}&c=real-2`);
});

test('a body is rewritten only when its length is declared; the new length replaces the old', () => {
  const head = Buffer.from('POST / HTTP/1.1\r\nContent-Length: 10\r\n\r\n');
  expect(contentLength(head)).toBe(10);
  expect(contentLength(Buffer.from('POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n'))).toBeUndefined();
  expect(contentLength(Buffer.from('GET / HTTP/1.1\r\n\r\n'))).toBe(0);
  expect(withContentLength(head, 42).toString()).toBe('POST / HTTP/1.1\r\nContent-Length: 42\r\n\r\n');
});
