/**
 * A Messages API fake that bills prompt caching the way the API documents it, for the agent-loop
 * benches (bench/agent-loop-cost.ts, bench/agent-loop-speed.ts): a request's prefix (tools, then
 * system, then messages, block by block) up to a `cache_control` breakpoint is written to a cache
 * that lives 5 minutes from its last use; a later request reads the longest cached prefix found at
 * its breakpoints or up to 20 block boundaries before one. Tokens are counted as a character count
 * / 4. Answers are a fixed text of `answerTokens` tokens. It also counts what each request would
 * have cost uncached.
 *
 * It answers as a model that takes time: the first token after `firstTokenMs`, the rest spread
 * over `streamMs`. A request with `stream: true` gets the answer as the API's server-sent events
 * (message_start, content_block_start, ping, content_block_delta text_delta chunks of about
 * `chunkTokens` tokens, content_block_stop, message_delta, message_stop) as it is "generated"; any
 * other gets the whole message once it is. Each request's timing is kept in `timings` as
 * wall-clock milliseconds (performance.timeOrigin + performance.now()), so that a bench in the
 * same process can tell what the model spent from what the platform did.
 */
import { createHash } from 'node:crypto';

export interface Billing {
  requests: number;
  input: number;
  cacheRead: number;
  cacheWrite: number;
  output: number;
  /** The same requests' input, had nothing been cached. */
  uncachedInput: number;
}

/** How the fake "generates" an answer; changeable between requests (`api.speed = {...}`). */
export interface Speed {
  /** From the request's arrival to its first text token. */
  firstTokenMs: number;
  /** From the first text token to the last. */
  streamMs: number;
  /** About how many tokens each text_delta carries. */
  chunkTokens: number;
}

/** One request, in wall-clock ms (performance.timeOrigin + performance.now()). */
export interface Timing {
  streamed: boolean;
  /** The last text of the conversation (the user's message): tells a bench's turns apart. */
  lastText: string;
  receivedAt: number;
  /**
   * When the model had its first text token: the first text delta written (streamed), or
   * `firstTokenMs` after the request (not streamed: the whole answer is written `streamMs` later).
   */
  firstTokenAt?: number;
  /** When the last byte of the answer was written. */
  doneAt?: number;
}

const LIFETIME_MS = 5 * 60_000;
const LOOKBACK = 20;
const tokens = (text: string) => Math.ceil(text.length / 4);
export const wallClock = () => performance.timeOrigin + performance.now();
const sleepUntil = async (at: number) => {
  const wait = at - wallClock();
  if (wait > 0) await Bun.sleep(wait);
};

interface RequestBody {
  model: string;
  stream?: boolean;
  system?: unknown;
  tools?: unknown[];
  messages: Array<{ content: unknown }>;
}

function lastText(body: RequestBody): string {
  const content = body.messages.at(-1)?.content;
  if (typeof content === 'string') return content;
  const texts = ((content as Array<{ type?: string; text?: string }> | undefined) ?? []).filter((b) => b.type === 'text');
  return texts.at(-1)?.text ?? '';
}

export function startCachingMessagesApi(options: { answerTokens: number } & Partial<Speed>) {
  const cache = new Map<string, number>();
  const billing: Billing = { requests: 0, input: 0, cacheRead: 0, cacheWrite: 0, output: 0, uncachedInput: 0 };
  const timings: Timing[] = [];
  const speed: Speed = { firstTokenMs: options.firstTokenMs ?? 0, streamMs: options.streamMs ?? 0, chunkTokens: options.chunkTokens ?? 10 };
  const answer = 'word '.repeat(Math.max(1, Math.round((options.answerTokens * 4) / 5)));

  /** What the request is billed, as the API bills caching; remembers what it cached. */
  function bill(body: RequestBody) {
    const blocks: Array<{ text: string; breakpoint: boolean }> = [];
    const add = (block: unknown) => {
      const { cache_control, ...rest } = (typeof block === 'string' ? { text: block } : block) as { cache_control?: unknown };
      blocks.push({ text: JSON.stringify(rest), breakpoint: cache_control !== undefined });
    };
    for (const tool of body.tools ?? []) add(tool);
    if (typeof body.system === 'string') add(body.system);
    else for (const block of (body.system as unknown[] | undefined) ?? []) add(block);
    for (const message of body.messages) for (const block of typeof message.content === 'string' ? [message.content] : (message.content as unknown[])) add(block);
    const now = Date.now();
    const hashes: string[] = [];
    const cumulative: number[] = [];
    let hash = '';
    let sum = 0;
    for (const block of blocks) {
      hash = createHash('sha256').update(hash).update(block.text).digest('hex');
      sum += tokens(block.text);
      hashes.push(hash);
      cumulative.push(sum);
    }
    const live = (h: string) => (cache.get(h) ?? 0) > now;
    const breakpoints = blocks.flatMap((b, i) => (b.breakpoint ? [i] : []));
    let read = -1;
    for (const b of breakpoints) for (let j = b; j >= Math.max(0, b - LOOKBACK); j--) if (live(hashes[j]!)) read = Math.max(read, j);
    const last = breakpoints.at(-1) ?? -1;
    const readTokens = read >= 0 ? cumulative[read]! : 0;
    const prefixTokens = last >= 0 ? cumulative[last]! : 0;
    const usage = {
      input_tokens: sum - Math.max(prefixTokens, readTokens),
      cache_read_input_tokens: readTokens,
      cache_creation_input_tokens: Math.max(0, prefixTokens - readTokens),
      output_tokens: options.answerTokens,
    };
    for (const b of breakpoints) cache.set(hashes[b]!, now + LIFETIME_MS);
    if (read >= 0) cache.set(hashes[read]!, now + LIFETIME_MS);
    billing.requests += 1;
    billing.input += usage.input_tokens;
    billing.cacheRead += usage.cache_read_input_tokens;
    billing.cacheWrite += usage.cache_creation_input_tokens;
    billing.output += usage.output_tokens;
    billing.uncachedInput += sum;
    return usage;
  }

  /** The answer as the API streams it: one SSE frame per event, each when the model would have it. */
  async function* frames(message: ReturnType<typeof wholeMessage>, timing: Timing, { firstTokenMs, streamMs, chunkTokens }: Speed) {
    const frame = (event: { type: string } & Record<string, unknown>) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
    const { usage } = message;
    yield frame({ type: 'message_start', message: { ...message, content: [], stop_reason: null, usage: { ...usage, output_tokens: 1 } } });
    yield frame({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
    yield frame({ type: 'ping' });
    const chunks = Math.max(1, Math.ceil(options.answerTokens / chunkTokens));
    const size = Math.ceil(answer.length / chunks);
    for (let i = 0; i < chunks; i++) {
      await sleepUntil(timing.receivedAt + firstTokenMs + (chunks > 1 ? (streamMs * i) / (chunks - 1) : 0));
      if (i === 0) timing.firstTokenAt = wallClock();
      yield frame({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: answer.slice(i * size, (i + 1) * size) } });
    }
    yield frame({ type: 'content_block_stop', index: 0 });
    yield frame({ type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage });
    yield frame({ type: 'message_stop' });
  }

  const wholeMessage = (body: RequestBody, usage: ReturnType<typeof bill>) => ({
    id: `msg_${billing.requests}`,
    type: 'message',
    role: 'assistant',
    model: body.model,
    content: [{ type: 'text', text: answer }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage,
  });

  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    // A held answer (the non-streamed path waits the whole "generation") must not be cut off.
    idleTimeout: 255,
    async fetch(request) {
      const receivedAt = wallClock();
      const body = (await request.json()) as RequestBody;
      const timing: Timing = { streamed: false, lastText: lastText(body), receivedAt };
      const message = wholeMessage(body, bill(body));
      timings.push(timing);
      const now = { ...speed };
      if (!body.stream) {
        timing.firstTokenAt = timing.receivedAt + now.firstTokenMs;
        await sleepUntil(timing.firstTokenAt + now.streamMs);
        timing.doneAt = wallClock();
        return Response.json(message);
      }
      timing.streamed = true;
      const encoder = new TextEncoder();
      const source = frames(message, timing, now);
      const stream = new ReadableStream<Uint8Array>({
        async pull(controller) {
          const next = await source.next();
          if (!next.done) return controller.enqueue(encoder.encode(next.value));
          timing.doneAt = wallClock();
          controller.close();
        },
        cancel: () => void source.return(undefined),
      });
      return new Response(stream, { headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' } });
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, billing, timings, speed, stop: () => server.stop(true) };
}
