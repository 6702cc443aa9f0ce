import type { ServerResponse } from 'node:http';

/**
 * Writes the web Response: status, headers, then the body. A JSON answer, or any body that comes
 * in one piece (a file download), is sent with its Content-Length; a longer stream is written
 * piece by piece, waiting for the socket to drain. With `holdEnd`, the answer is written but
 * ended only once it settles (see request-body.ts: a closing exchange whose body is still coming).
 */
export async function writeResponse(res: ServerResponse, response: Response, method: string, holdEnd?: Promise<void>): Promise<void> {
  const end = async (last?: Uint8Array) => {
    if (!holdEnd) return void res.end(last);
    if (last) res.write(last);
    await holdEnd;
    if (!res.destroyed) res.end();
  };
  res.statusCode = response.status;
  const cookies = response.headers.getSetCookie();
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') res.setHeader(name, value);
  });
  if (cookies.length > 0) res.setHeader('set-cookie', cookies);
  if (method === 'HEAD') {
    response.body?.cancel().catch(() => undefined);
    await end();
    return;
  }
  if (response.headers.get('content-type')?.startsWith('application/json')) {
    // Every JSON answer is built in memory: taken whole, without opening a stream on it (a
    // reader and two reads per answer showed in the gateway's profile).
    const bytes = new Uint8Array(await response.arrayBuffer());
    if (!res.hasHeader('content-length')) res.setHeader('content-length', bytes.byteLength);
    await end(bytes);
    return;
  }
  if (!response.body) {
    await end();
    return;
  }
  if (response.headers.get('content-type')?.startsWith('text/event-stream')) return writeEventStream(res, response.body);
  const reader = response.body.getReader();
  const first = await reader.read();
  if (first.done) {
    await end();
    return;
  }
  const second = await reader.read();
  if (second.done) {
    if (!res.hasHeader('content-length')) res.setHeader('content-length', first.value.byteLength);
    await end(first.value);
    return;
  }
  try {
    await write(res, first.value);
    await write(res, second.value);
    for (;;) {
      const next = await reader.read();
      if (next.done) break;
      await write(res, next.value);
    }
    await end();
  } catch (err) {
    reader.cancel().catch(() => undefined);
    throw err;
  }
}

/**
 * A Server-Sent Events body: the head goes out at once (the client waits for it before reading
 * any event) and each piece as soon as it is produced, never held back for a second one. The
 * connection's idle timeout does not apply (the stream sends its own keep-alives); when the
 * client goes, the stream is cancelled so its producer stops.
 */
async function writeEventStream(res: ServerResponse, body: ReadableStream<Uint8Array>): Promise<void> {
  res.socket?.setTimeout(0);
  res.flushHeaders();
  const reader = body.getReader();
  const gone = () => reader.cancel().catch(() => undefined);
  res.once('close', gone);
  try {
    for (;;) {
      const next = await reader.read();
      if (next.done) break;
      await write(res, next.value);
    }
    res.end();
  } catch {
    // The client went away mid-stream: nothing more can be said on this connection.
    reader.cancel().catch(() => undefined);
    res.destroy();
  } finally {
    res.off('close', gone);
  }
}

function write(res: ServerResponse, chunk: Uint8Array): Promise<void> {
  if (res.destroyed) return Promise.reject(new Error('connection closed'));
  if (res.write(chunk)) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const done = (err?: Error) => {
      res.off('drain', done);
      res.off('close', closed);
      err ? reject(err) : resolve();
    };
    const closed = () => done(new Error('connection closed'));
    res.once('drain', done);
    res.once('close', closed);
  });
}
