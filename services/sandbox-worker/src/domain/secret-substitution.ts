import { randomBytes } from 'node:crypto';
import type { SandboxSecret } from '@shared/schema/sandbox-policy';
import { hostMatches } from './egress-rules';

/**
 * A session's environment-variable credentials at its egress: inside the sandbox each variable
 * holds a placeholder, random per session; the proxy puts the real value in its place in requests
 * to the credential's hosts (any host when it has none), in header values and/or the body as its
 * injection location says, and nowhere else: a request to another host goes out with the
 * placeholder. Over HTTPS this needs the request in the clear: the proxy intercepts a tunnel only
 * to a host some credential applies to (clients/interception.ts).
 */
export interface Substitution extends SandboxSecret {
  placeholder: string;
}

export function withPlaceholders(secrets: readonly SandboxSecret[]): Substitution[] {
  return secrets.map((secret) => ({ ...secret, placeholder: `sandbox-secret-${randomBytes(16).toString('hex')}` }));
}

/** What the session's environment holds: each variable's placeholder. */
export function placeholderEnvironment(substitutions: readonly Substitution[]): Record<string, string> {
  return Object.fromEntries(substitutions.map((s) => [s.name, s.placeholder]));
}

export function substitutionsFor(host: string, substitutions: readonly Substitution[]): Substitution[] {
  return substitutions.filter((s) => s.hosts === null || s.hosts.some((entry) => hostMatches(entry, host)));
}

/** The head with placeholders replaced in header values (never the request line) where the credential allows headers. */
export function substituteHeaders(head: Buffer, substitutions: readonly Substitution[]): Buffer {
  const inHeaders = substitutions.filter((s) => s.header);
  if (inHeaders.length === 0) return head;
  const [requestLine, ...rest] = head.toString('latin1').split('\r\n');
  const lines = rest.map((line) => {
    const colon = line.indexOf(':');
    if (colon < 0) return line;
    let value = line.slice(colon + 1);
    for (const s of inHeaders) value = value.split(s.placeholder).join(Buffer.from(s.value).toString('latin1'));
    return line.slice(0, colon + 1) + value;
  });
  return Buffer.from([requestLine, ...lines].join('\r\n'), 'latin1');
}

/** The body with placeholders replaced where the credential allows bodies. */
export function substituteBody(body: Buffer, substitutions: readonly Substitution[]): Buffer {
  let text = body;
  for (const s of substitutions.filter((x) => x.body)) {
    const parts: Buffer[] = [];
    let at = 0;
    for (let found = text.indexOf(s.placeholder); found >= 0; found = text.indexOf(s.placeholder, at)) {
      parts.push(text.subarray(at, found), Buffer.from(s.value));
      at = found + s.placeholder.length;
    }
    parts.push(text.subarray(at));
    text = Buffer.concat(parts);
  }
  return text;
}

/** The declared length of a request's body (0 without one); undefined for a chunked body, which is sent on as it is. */
export function contentLength(head: Buffer): number | undefined {
  const text = head.toString('latin1');
  if (/\r\ntransfer-encoding\s*:/i.test(text)) return undefined;
  const match = /\r\ncontent-length\s*:\s*(\d+)/i.exec(text);
  return match ? Number(match[1]) : 0;
}

/** The head with its content-length set to `length`. */
export function withContentLength(head: Buffer, length: number): Buffer {
  return Buffer.from(head.toString('latin1').replace(/\r\ncontent-length\s*:\s*\d+/i, `\r\nContent-Length: ${length}`), 'latin1');
}
