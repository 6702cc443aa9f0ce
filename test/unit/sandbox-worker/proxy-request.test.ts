import { expect, test } from 'bun:test';
import { parseProxyRequest, proxyRefusal } from '../../../services/sandbox-worker/src/domain/proxy-request';

const head = (text: string) => Buffer.from(text.replaceAll('\n', '\r\n'), 'latin1');

test('CONNECT names its host and port (IPv6 in brackets)', () => {
  expect(parseProxyRequest(head('CONNECT registry.npmjs.org:443 HTTP/1.1\nHost: registry.npmjs.org:443\n\n'))).toEqual({ kind: 'connect', host: 'registry.npmjs.org', port: 443 });
  expect(parseProxyRequest(head('CONNECT [::1]:22 HTTP/1.1\n\n'))).toEqual({ kind: 'connect', host: '::1', port: 22 });
});

test('a plain-HTTP request in absolute form is sent on in origin form, its headers kept', () => {
  const parsed = parseProxyRequest(head('GET http://example.test:8081/a/b?c=1 HTTP/1.1\nHost: example.test:8081\nAuthorization: Bearer x\n\n'));
  expect(parsed).toMatchObject({ kind: 'http', host: 'example.test', port: 8081 });
  if ('head' in parsed) expect(parsed.head.toString('latin1')).toBe('GET /a/b?c=1 HTTP/1.1\r\nHost: example.test:8081\r\nAuthorization: Bearer x\r\n\r\n');
  expect(parseProxyRequest(head('GET http://example.test/ HTTP/1.1\n\n'))).toMatchObject({ port: 80 });
});

test('what is not a proxy request is refused with a reason', () => {
  for (const bad of ['GET / HTTP/1.1\n\n', 'CONNECT nohost HTTP/1.1\n\n', 'CONNECT host:99999 HTTP/1.1\n\n', 'GET https://x.test/ HTTP/1.1\n\n', 'hello\n\n']) {
    expect(parseProxyRequest(head(bad))).toHaveProperty('error');
  }
  expect(proxyRefusal(403, 'egress to x:1 refused: because')).toBe('HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\ncontent-length: 31\r\nconnection: close\r\n\r\negress to x:1 refused: because\n');
});
