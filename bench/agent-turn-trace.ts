/**
 * Where one turn's time goes: the stack of bench/agent-loop-speed.ts in this process with tracing
 * on (every span, to a collector of OTLP/HTTP JSON served here), a session on the SDK's event
 * stream sent `turns` messages one after another against an instant model; prints each turn's
 * events as the client saw them (ms after the send), then every span that began during the last
 * turn: ms after the send, duration, service, name and attributes (statements included).
 *
 *   bun bench/agent-turn-trace.ts        # 4 turns
 *   bun bench/agent-turn-trace.ts 10
 */
import Anthropic from '@anthropic-ai/sdk';
import { apiClient } from '../test/support/api';
import { createAgent, createEnvironment } from '../test/support/fixtures';
import { Stack } from '../test/support/stack';
import { startCachingMessagesApi, wallClock } from './caching-messages-api';

/** A span as the collector received it, times in wall-clock ms. */
type Span = { service: string; name: string; start: number; end: number; attrs: string };
const spans: Span[] = [];
const collector = Bun.serve({
  port: 0, hostname: '127.0.0.1',
  async fetch(req) {
    const body = (await req.json()) as any;
    for (const rs of body.resourceSpans ?? []) {
      const service = rs.resource?.attributes?.find((a: any) => a.key === 'service.name')?.value?.stringValue ?? '?';
      for (const ss of rs.scopeSpans ?? []) for (const s of ss.spans ?? []) {
        const attrs = (s.attributes ?? []).map((a: any) => `${a.key}=${JSON.stringify(Object.values(a.value)[0]).slice(0, 60)}`).join(' ');
        spans.push({ service, name: s.name, start: Number(BigInt(s.startTimeUnixNano) / 1000n) / 1000, end: Number(BigInt(s.endTimeUnixNano) / 1000n) / 1000, attrs });
      }
    }
    return Response.json({});
  },
});
const model = startCachingMessagesApi({ answerTokens: 20 });
const otel = { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${collector.port}`, OTEL_TRACES_SAMPLER: 'always_on' };
const stack = await Stack.start({ services: ['catalog', 'deployments', 'vaults', 'runtime'], env: { LOG_LEVEL: 'error', MYSQL_POOL_SIZE: '10', ...otel }, serviceEnv: { runtime: { MODEL_API_BASE_URL: model.url, MODEL_API_KEY: 'sk', ...otel } } });
const secret = (await stack.createKey()).secret;
const api = apiClient(stack.url, secret);
const agent = await createAgent(api, { model: 'claude-sonnet-5-5', system: 'x', tools: [] });
const env = await createEnvironment(api, { config: { type: 'self_hosted' } });
const client = new Anthropic({ apiKey: secret, baseURL: stack.url, maxRetries: 0 });
const session = await client.beta.sessions.create({ agent: agent.id, environment_id: env.id });
const stream = await client.beta.sessions.events.stream(session.id);
const it = stream[Symbol.asyncIterator]();
const windows: Array<[number, number]> = [];
for (let turn = 1; turn <= Number(process.argv[2] ?? 4); turn++) {
  const sent = wallClock();
  await client.beta.sessions.events.send(session.id, { events: [{ type: 'user.message', content: [{ type: 'text', text: `t${turn}` }] }] });
  const seen: string[] = [];
  for (;;) { const n = await it.next(); seen.push(`${(n.value as any).type}@${Math.round(wallClock() - sent)}`); if ((n.value as any).type === 'session.status_idle') break; }
  windows.push([sent, wallClock()]);
  console.log(`turn ${turn}: ${Math.round(wallClock() - sent)} ms; ${seen.join(' ')}`);
  // Apart, so one turn's spans are not mixed with the last one's late ones.
  await Bun.sleep(300);
}
// The services export spans in batches, every 5 s.
await Bun.sleep(6000);
const [a, b] = windows.at(-1)!;
console.log('model timing', model.timings.at(-1)!.receivedAt - a, model.timings.at(-1)!.doneAt! - a);
for (const s of spans.filter((s) => s.start >= a - 5 && s.start <= b + 50).sort((x, y) => x.start - y.start)) console.log(`${(s.start - a).toFixed(1).padStart(7)} +${(s.end - s.start).toFixed(1).padStart(6)} ${s.service.padEnd(12)} ${s.name} ${s.attrs.slice(0, 140)}`);
stream.controller.abort();
await stack.stop(); model.stop(); collector.stop(true);
process.exit(0);
