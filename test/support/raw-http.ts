import { connect, type Socket } from 'node:net';

/**
 * HTTP/1.1 over a bare TCP socket, for what `fetch` cannot send: odd Host headers, pipelined
 * requests in one write, bodies that stop half way, chunked bodies of any size. Responses are
 * parsed as they arrive (Content-Length framed, as the gateway answers).
 */
export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  json: any;
}

export interface RawExchange {
  responses: RawResponse[];
  /** Bytes of request the socket accepted before it closed or the exchange ended. */
  bytesWritten: number;
  /** The error the socket raised while we were still writing (EPIPE, ECONNRESET), if any. */
  socketError?: string;
  /** True when the server closed the connection. */
  closedByServer: boolean;
}

export interface RawOptions {
  /** Stop once this many complete responses arrived (default 1). */
  responses?: number;
  /**
   * Write every part even after the answer arrived, as a client that sends its whole body before
   * it reads (most do); the exchange ends when both are done or the server closed.
   */
  writeAll?: boolean;
  /**
   * Close our sending side after the last write (a TCP half-close, as `nc -N` or a client that
   * has nothing more to send does) and keep reading the answer.
   */
  halfClose?: boolean;
}

type Part = string | Uint8Array;

function parseResponses(buffer: Buffer): RawResponse[] {
  const out: RawResponse[] = [];
  let offset = 0;
  for (;;) {
    const headEnd = buffer.indexOf('\r\n\r\n', offset);
    if (headEnd === -1) return out;
    const [statusLine, ...lines] = buffer.subarray(offset, headEnd).toString('latin1').split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers['content-length'] ?? 0);
    if (buffer.length < headEnd + 4 + length) return out;
    const text = buffer.subarray(headEnd + 4, headEnd + 4 + length).toString('utf8');
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    out.push({ status: Number(statusLine.split(' ')[1]), headers, text, json });
    offset = headEnd + 4 + length;
  }
}

/**
 * Writes `parts` (each one socket write; an async iterable is written as the socket drains) and
 * collects what comes back until the expected responses arrived or the server closed. The socket
 * stays open after the last write, as a client waiting for its answer (or one that stopped
 * sending its body) does.
 */
export function rawExchange(port: number, parts: Part[] | AsyncIterable<Part>, options: RawOptions = {}): Promise<RawExchange> {
  const wanted = options.responses ?? 1;
  return new Promise((resolve) => {
    const socket: Socket = connect(port, '127.0.0.1');
    let received = Buffer.alloc(0);
    let bytesWritten = 0;
    let socketError: string | undefined;
    let finished = false;
    let closedByServer = false;
    let writing = true;
    const finish = () => {
      if (finished) return;
      if (options.writeAll && writing && !socket.destroyed && !closedByServer) return;
      finished = true;
      socket.destroy();
      resolve({ responses: parseResponses(received), bytesWritten, socketError, closedByServer });
    };
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (parseResponses(received).length >= wanted) finish();
    });
    socket.on('end', () => {
      closedByServer = true;
      finish();
    });
    socket.on('close', () => {
      closedByServer = true;
      writing = false;
      finish();
    });
    socket.on('error', (err: NodeJS.ErrnoException) => {
      socketError = err.code ?? err.message;
    });
    socket.once('connect', async () => {
      for await (const part of parts) {
        if (finished || socket.destroyed) break;
        const ok = socket.write(part);
        bytesWritten += typeof part === 'string' ? Buffer.byteLength(part) : part.byteLength;
        if (!ok) await new Promise<void>((r) => (socket.once('drain', r), socket.once('close', r)));
      }
      writing = false;
      if (options.halfClose && !socket.destroyed) socket.end();
      if (parseResponses(received).length >= wanted) finish();
    });
  });
}

export const crlf = (lines: string[]) => lines.join('\r\n') + '\r\n\r\n';
