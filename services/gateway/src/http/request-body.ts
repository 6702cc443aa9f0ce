import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The request body as a web stream pulled from the connection: a piece is read from the socket
 * only when the reader asks for it (highWaterMark 0), so a body the gateway does not read is not
 * buffered. Whatever the gateway left unread (refused, or answered before reading) is read and
 * discarded once the answer is written, so a client that sends its whole body before reading
 * gets the answer instead of a reset; past `maxBytes` in all, the connection is closed.
 *
 * An exchange that ends the connection (`Connection: close`, HTTP/1.0) cannot discard after the
 * answer: the runtime closes the socket as soon as the answer ends, and the rest of the body met a
 * reset (EPIPE / ECONNRESET instead of the 413). There the answer is written at once but ended
 * only once the body has been read to its end (`untilDiscarded`), within the same bound.
 */
export function requestBody(incoming: IncomingMessage, res: ServerResponse, maxBytes: number) {
  let received = 0;
  let discarding = false;
  let listening = false;
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  const overBound = () => {
    if (received > maxBytes) incoming.socket?.destroy();
  };
  const discard = () => {
    if (discarding || incoming.complete) return;
    discarding = true;
    controller = undefined;
    if (!listening) listen();
    overBound();
    incoming.resume();
  };
  const listen = () => {
    listening = true;
    incoming.on('data', (chunk: Buffer) => {
      received += chunk.byteLength;
      if (discarding) return overBound();
      controller?.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      if ((controller?.desiredSize ?? 0) <= 0) incoming.pause();
    });
    incoming.once('end', () => {
      try {
        controller?.close();
      } catch {
        // Already cancelled by the reader.
      }
    });
    incoming.once('close', () => {
      if (incoming.complete) return;
      try {
        controller?.error(new Error('the connection closed before the whole body arrived'));
      } catch {
        // Already cancelled by the reader.
      }
    });
  };
  const stream = new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
      },
      pull() {
        if (!listening) listen();
        incoming.resume();
      },
      cancel: () => {
        // The reader gave up (over the limit, too slow): the rest is discarded after the answer.
        controller = undefined;
        incoming.pause();
      },
    },
    { highWaterMark: 0 },
  );
  return {
    stream,
    /** Whether the runtime closes the connection once this answer ends (Bun's `shouldKeepAlive` does not say). */
    endsConnection: endsConnection(incoming),
    /**
     * Starts discarding now and resolves once the client has sent the whole body (or the
     * connection went, or the bound was passed and it was closed): the answer may end then.
     */
    untilDiscarded: (): Promise<void> => {
      if (incoming.complete || res.destroyed) return Promise.resolve();
      const done = new Promise<void>((resolve) => {
        incoming.once('end', () => resolve());
        incoming.once('close', () => resolve());
      });
      discard();
      return done;
    },
    /** After the answer: throw away what the client still sends for this request, up to the bound. */
    afterAnswer: () => {
      if (!res.destroyed) discard();
    },
  };
}

function endsConnection(incoming: IncomingMessage): boolean {
  const tokens = String(incoming.headers.connection ?? '').toLowerCase().split(',').map((token) => token.trim());
  if (tokens.includes('close')) return true;
  return incoming.httpVersion === '1.0' && !tokens.includes('keep-alive');
}
