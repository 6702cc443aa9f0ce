import type { MessageCreateParamsNonStreaming } from '@anthropic-ai/sdk/resources/messages';

/**
 * A local server speaking the Messages API (`POST /v1/messages`) with scripted replies: what the
 * runtime's model client talks to in tests, over real HTTP. Each request takes the next reply of
 * the script; a reply may be held until the test lets it go. A request with `stream: true` gets
 * the reply as the API streams it (message_start, each block's start, deltas and stop,
 * message_delta, message_stop); a reply may pause mid-answer, after its first text fragment.
 */
export interface ScriptedMessage {
  content: Array<Record<string, unknown>>;
  stop_reason: 'end_turn' | 'tool_use' | 'max_tokens' | 'refusal';
  usage: { input_tokens: number; output_tokens: number; cache_read_input_tokens?: number; cache_creation_input_tokens?: number };
}
export type ScriptedReply = ScriptedMessage | { status: number; type: string; message: string };

export class FakeModelApi {
  readonly requests: MessageCreateParamsNonStreaming[] = [];
  readonly apiKeys: string[] = [];
  private readonly script: Array<{ reply: ScriptedReply; hold?: Promise<void>; midway?: { reached: () => void; resume: Promise<void> } }> = [];
  private waiting: Array<() => void> = [];

  private constructor(private readonly server: ReturnType<typeof Bun.serve>) {}

  static start(): FakeModelApi {
    let api!: FakeModelApi;
    const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: (request) => api.handle(request) });
    api = new FakeModelApi(server);
    return api;
  }

  get url(): string {
    return `http://127.0.0.1:${this.server.port}`;
  }

  /** Queues the next replies. */
  reply(...replies: ScriptedReply[]): this {
    for (const reply of replies) this.script.push({ reply });
    return this;
  }

  /** Queues a reply that waits until the returned function is called. */
  replyHeld(reply: ScriptedReply): () => void {
    let release!: () => void;
    const hold = new Promise<void>((resolve) => (release = resolve));
    this.script.push({ reply, hold });
    return release;
  }

  /**
   * Queues a reply streamed up to its first text fragment, then paused until `finish` is called:
   * `midway` resolves once that fragment was written.
   */
  replyPausedMidway(reply: ScriptedMessage): { midway: Promise<void>; finish: () => void } {
    let reached!: () => void;
    let finish!: () => void;
    const midway = new Promise<void>((resolve) => (reached = resolve));
    const resume = new Promise<void>((resolve) => (finish = resolve));
    this.script.push({ reply, midway: { reached, resume } });
    return { midway, finish };
  }

  /** Resolves once `count` requests in all have arrived. */
  async received(count: number, timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.requests.length < count) {
      if (Date.now() > deadline) throw new Error(`expected ${count} model requests, got ${this.requests.length}`);
      await Bun.sleep(20);
    }
  }

  private async handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    if (request.method !== 'POST' || url.pathname !== '/v1/messages') return Response.json({ type: 'error', error: { type: 'not_found_error', message: 'no such route' } }, { status: 404 });
    // SDK 0.x sends the key as x-api-key, 1.x as a bearer token: the Messages API takes either.
    this.apiKeys.push(request.headers.get('x-api-key') ?? request.headers.get('authorization')?.replace(/^Bearer /i, '') ?? '');
    const body = (await request.json()) as MessageCreateParamsNonStreaming;
    this.requests.push(body);
    const next = this.script.shift();
    if (!next) return Response.json({ type: 'error', error: { type: 'api_error', message: 'script exhausted' } }, { status: 500 });
    if (next.hold) await next.hold;
    const { reply } = next;
    if ('status' in reply) return Response.json({ type: 'error', error: { type: reply.type, message: reply.message } }, { status: reply.status });
    const message = {
      id: `msg_${this.requests.length}`,
      type: 'message',
      role: 'assistant',
      model: body.model,
      content: reply.content,
      stop_reason: reply.stop_reason,
      stop_sequence: null,
      usage: { cache_read_input_tokens: 0, cache_creation_input_tokens: 0, ...reply.usage },
    };
    if (!(body as { stream?: boolean }).stream) return Response.json(message);
    return new Response(streamed(message, next.midway), { headers: { 'content-type': 'text/event-stream' } });
  }

  stop(): void {
    this.server.stop(true);
  }
}

type Sse = { event: string; data: Record<string, unknown> };
const sse = (event: string, data: Record<string, unknown>): Sse => ({ event, data: { type: event, ...data } });

/** One content block as the API streams it: its start (empty), its deltas, its stop. */
function blockEvents(block: Record<string, unknown>, index: number): Sse[] {
  const stop = sse('content_block_stop', { index });
  const delta = (d: Record<string, unknown>) => sse('content_block_delta', { index, delta: d });
  if (block.type === 'text') {
    // Word by word, as fragments arrive from the model.
    const words = String(block.text).split(/(?<= )/);
    return [sse('content_block_start', { index, content_block: { type: 'text', text: '' } }), ...words.map((text) => delta({ type: 'text_delta', text })), stop];
  }
  if (block.type === 'tool_use') {
    const start = sse('content_block_start', { index, content_block: { ...block, input: {} } });
    return [start, delta({ type: 'input_json_delta', partial_json: JSON.stringify(block.input ?? {}) }), stop];
  }
  if (block.type === 'thinking') {
    const start = sse('content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } });
    return [start, delta({ type: 'thinking_delta', thinking: block.thinking }), delta({ type: 'signature_delta', signature: block.signature ?? 'sig' }), stop];
  }
  return [sse('content_block_start', { index, content_block: block }), stop];
}

/** A message as the Messages API streams it; with `midway`, paused after the first text fragment. */
function streamed(message: { content: Array<Record<string, unknown>>; stop_reason: string; usage: Record<string, number> }, midway?: { reached: () => void; resume: Promise<void> }) {
  const events: Sse[] = [
    sse('message_start', { message: { ...message, content: [], stop_reason: null, usage: { ...message.usage, output_tokens: 0 } } }),
    ...message.content.flatMap(blockEvents),
    sse('message_delta', { delta: { stop_reason: message.stop_reason, stop_sequence: null }, usage: { output_tokens: message.usage.output_tokens } }),
    sse('message_stop', {}),
  ];
  const encoder = new TextEncoder();
  const firstText = events.findIndex((e) => (e.data.delta as { type?: string } | undefined)?.type === 'text_delta');
  let cancelled = false;
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      for (const [i, e] of events.entries()) {
        // The client went away (it stopped the request): nothing more is written.
        if (cancelled) return;
        controller.enqueue(encoder.encode(`event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`));
        if (midway && i === firstText) {
          midway.reached();
          await midway.resume;
        }
      }
      if (!cancelled) controller.close();
    },
    cancel() {
      cancelled = true;
    },
  });
}
