import type { MessageCreateParamsNonStreaming } from '@anthropic-ai/sdk/resources/messages';

/**
 * A local server speaking the Messages API (`POST /v1/messages`, non-streaming) with scripted
 * replies: what the runtime's model client talks to in tests, over real HTTP. Each request takes
 * the next reply of the script; a reply may be held until the test lets it go.
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
  private readonly script: Array<{ reply: ScriptedReply; hold?: Promise<void> }> = [];
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
    return Response.json({
      id: `msg_${this.requests.length}`,
      type: 'message',
      role: 'assistant',
      model: body.model,
      content: reply.content,
      stop_reason: reply.stop_reason,
      stop_sequence: null,
      usage: { cache_read_input_tokens: 0, cache_creation_input_tokens: 0, ...reply.usage },
    });
  }

  stop(): void {
    this.server.stop(true);
  }
}
