/**
 * The first request on a connection to a session's egress proxy, read off its head: `CONNECT
 * host:port` (a tunnel), or a plain-HTTP request in absolute form (`GET http://host/path`), which
 * is sent on in origin form. Everything later on the connection goes to the same destination.
 */
export type ProxyRequest =
  | { kind: 'connect'; host: string; port: number }
  | { kind: 'http'; host: string; port: number; head: Buffer };

export function parseProxyRequest(head: Buffer): ProxyRequest | { error: string } {
  const text = head.toString('latin1');
  const lineEnd = text.indexOf('\r\n');
  const [method, target, version, extra] = text.slice(0, lineEnd).split(' ');
  if (!method || !target || !version?.startsWith('HTTP/') || extra !== undefined) return { error: 'not an HTTP proxy request' };
  if (method === 'CONNECT') {
    const at = target.lastIndexOf(':');
    const port = Number(target.slice(at + 1));
    const host = target.slice(0, at).replace(/^\[(.*)\]$/, '$1');
    if (at <= 0 || !Number.isInteger(port) || port < 1 || port > 65535) return { error: `CONNECT needs host:port, not ${target}` };
    return { kind: 'connect', host, port };
  }
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return { error: 'a proxied request names its URL in full (http://host/path)' };
  }
  if (url.protocol !== 'http:') return { error: `only http:// is proxied in the clear; ${url.protocol} goes through CONNECT` };
  const port = url.port ? Number(url.port) : 80;
  const rewritten = `${method} ${url.pathname}${url.search} ${version}${text.slice(lineEnd)}`;
  return { kind: 'http', host: url.hostname.replace(/^\[(.*)\]$/, '$1'), port, head: Buffer.from(rewritten, 'latin1') };
}

/** A proxy's own answer: a status and a one-line reason, then the connection ends. */
export function proxyRefusal(status: 400 | 403 | 502, reason: string): string {
  const title = { 400: 'Bad Request', 403: 'Forbidden', 502: 'Bad Gateway' }[status];
  const body = `${reason}\n`;
  return `HTTP/1.1 ${status} ${title}\r\ncontent-type: text/plain\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`;
}

/**
 * The request head with `authorization` set to the given value (one the client sent is replaced)
 * and the connection closed after the answer: the next request comes on a new connection, whose
 * head is rewritten again, so no request on it goes out without the credential or with another's.
 */
export function withAuthorization(head: Buffer, authorization: string): Buffer {
  return rewriteHeaders(head, /^(authorization|proxy-authorization|connection|proxy-connection)\s*:/i, [`Authorization: ${authorization}`, 'Connection: close']);
}

/** The request head with the connection closed after the answer (so the next request is read, and rewritten, again). */
export function withConnectionClose(head: Buffer): Buffer {
  return rewriteHeaders(head, /^(connection|proxy-connection)\s*:/i, ['Connection: close']);
}

function rewriteHeaders(head: Buffer, drop: RegExp, add: string[]): Buffer {
  const lines = head.toString('latin1').split('\r\n');
  const kept = lines.slice(1).filter((line) => line !== '' && !drop.test(line));
  return Buffer.from([lines[0], ...kept, ...add, '', ''].join('\r\n'), 'latin1');
}

/** An intercepted request, in origin form (`GET /path HTTP/1.1`), as the client sent it inside its tunnel. */
export function isOriginRequest(head: Buffer): boolean {
  return /^[A-Z]+ \/\S* HTTP\/1\.[01]\r\n/.test(head.toString('latin1', 0, Math.min(head.length, 8192)));
}
