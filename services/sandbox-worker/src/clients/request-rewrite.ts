import type { Duplex } from 'node:stream';
import { withAuthorization, withConnectionClose } from '../domain/proxy-request';
import { contentLength, substituteBody, substituteHeaders, withContentLength, type Substitution } from '../domain/secret-substitution';

/** The longest body the proxy reads to put a credential into; a longer one goes on as it is. */
const BODY_LIMIT = 16 * 1024 * 1024;

/**
 * What the proxy sends for one request a credential applies to (a repository's token, an
 * environment variable's value; domain/secret-substitution.ts): its head rewritten, and its body
 * read whole and rewritten where a credential goes into bodies. The connection closes after the
 * answer, so each request is read and rewritten in turn. Undefined when nothing applies: the
 * request goes on untouched.
 */
export async function rewriteRequest(socket: Duplex, head: Buffer, substitutions: readonly Substitution[], authorization: string | undefined): Promise<Buffer | undefined> {
  if (substitutions.length === 0 && !authorization) return undefined;
  let rewritten = substituteHeaders(head, substitutions);
  rewritten = authorization ? withAuthorization(rewritten, authorization) : withConnectionClose(rewritten);
  const length = contentLength(head);
  if (!substitutions.some((s) => s.body) || !length || length > BODY_LIMIT) return rewritten;
  const body = substituteBody(await readExactly(socket, length), substitutions);
  return Buffer.concat([withContentLength(rewritten, body.length), body]);
}

/** `length` bytes of the socket (paused where the head ended); what came after them is put back. */
function readExactly(socket: Duplex, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    let buffered = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      if (buffered.length < length) return;
      socket.off('data', onData);
      socket.pause();
      if (buffered.length > length) socket.unshift(buffered.subarray(length));
      resolve(buffered.subarray(0, length));
    };
    socket.on('data', onData);
    socket.once('end', () => reject(new Error('the request body ended early')));
    socket.resume();
  });
}
