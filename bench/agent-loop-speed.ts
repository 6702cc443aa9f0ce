/**
 * How fast the agent loop is, through the real stack and the official SDK (1.14), against
 * bench/caching-messages-api.ts answering as a model that takes time. Three parts, each on a
 * stack of its own (agents without tools, a self-hosted environment; every client on
 * `client.beta.sessions.events.stream`):
 *
 * - first-token: a 2,000-token answer streamed over 4 s; ms from the fake writing its first text
 *   delta to the first `event_delta` the client sees (with `event_deltas: ['agent.message']`), and
 *   to the whole `agent.message`.
 * - overhead: an instant model; per turn, from sending user.message to seeing session.status_idle,
 *   less what the fake spent answering; p50/p95/p99 over sessions x turns (each session's turns
 *   one after another; `--parallel` sessions at once).
 * - many: `--many` sessions started at once, 3 turns each (a turn sent when the last went idle),
 *   against a model answering in 1 s; wall time against the ideal (3 x 1 s), streams refused (429)
 *   or failed. A client whose stream is refused still runs its turns, watching by polling.
 *   `--rounds` rounds of it on one stack, one after another, each printed: the first runs on
 *   processes just started, whose code Bun's JIT is still compiling (a quarter to a third more CPU
 *   a turn); the last is the stack as it runs in service, warm.
 *
 * Not part of `bun test`. All in this process, like the tests' stacks, or with `--processes` each
 * service in its own (bench/agent-loop-stack.ts); `--help` for the flags:
 *
 *   bun bench/agent-loop-speed.ts                          # all three parts
 *   bun bench/agent-loop-speed.ts --parts overhead --sessions 20 --turns 10 --parallel 1
 */
import Anthropic from '@anthropic-ai/sdk';
import { parseArgs } from 'node:util';
import { wallClock } from './caching-messages-api';
import { cpuLine, watch, withBench, type Bench, type BenchOptions, type Event } from './agent-loop-stack';

const { values: flags } = parseArgs({
  args: process.argv.slice(2),
  options: {
    parts: { type: 'string', default: 'first-token,overhead,many' },
    samples: { type: 'string', default: '3' },
    sessions: { type: 'string', default: '20' },
    turns: { type: 'string', default: '10' },
    parallel: { type: 'string', default: '1' },
    many: { type: 'string', default: '200' },
    'many-turns': { type: 'string', default: '3' },
    rounds: { type: 'string', default: '3' },
    'model-ms': { type: 'string', default: '1000' },
    /** Extra environment for every service, `NAME=value,NAME=value` (e.g. RUNTIME_CONCURRENCY=64). */
    env: { type: 'string', default: '' },
    processes: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});
if (flags.help) {
  console.log('flags: --parts first-token,overhead,many --samples N --sessions N --turns N --parallel N --many N --many-turns N --rounds N --model-ms N --env A=1,B=2 --processes');
  process.exit(0);
}
const env = Object.fromEntries(flags.env.split(',').filter(Boolean).map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));
const bench = (speed: BenchOptions['speed']) => ({ speed, env, processes: flags.processes });

const userMessage = (text: string) => ({ events: [{ type: 'user.message' as const, content: [{ type: 'text' as const, text }] }] });
const isIdle = (e: Event) => e.type === 'session.status_idle';
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
const ms = (n: number) => `${Math.round(n)} ms`;
const spread = (list: number[]) => {
  const sorted = [...list].sort((a, b) => a - b);
  return `p50 ${ms(percentile(sorted, 50))}, p95 ${ms(percentile(sorted, 95))}, p99 ${ms(percentile(sorted, 99))}, max ${ms(sorted.at(-1)!)}`;
};

async function firstToken() {
  await withBench(bench({ answerTokens: 2000, firstTokenMs: 300, streamMs: 4000 }), async ({ client, model, agentId, environmentId }) => {
    console.log('first visible token: a 2,000-token answer streamed over 4 s (first token 300 ms after the request)');
    for (let sample = 1; sample <= Number(flags.samples); sample++) {
      const session = await client.beta.sessions.create({ agent: agentId, environment_id: environmentId });
      const stream = await client.beta.sessions.events.stream(session.id, { event_deltas: ['agent.message'] });
      const watcher = watch(stream);
      const text = `first-token sample ${sample}`;
      const sentAt = wallClock();
      await client.beta.sessions.events.send(session.id, userMessage(text));
      const first = await watcher.until((e) => e.type === 'event_delta' || e.type === 'agent.message');
      const firstDelta = first.event.type === 'event_delta' ? first.at : undefined;
      const whole = first.event.type === 'agent.message' ? first : await watcher.until((e) => e.type === 'agent.message');
      await watcher.until(isIdle);
      stream.controller.abort();
      const timing = model.timings.find((t) => t.lastText === text);
      const modelFirst = timing?.firstTokenAt;
      if (modelFirst === undefined) throw new Error('the fake saw no request for this turn');
      const deltas = watcher.seen.filter((s) => s.event.type === 'event_delta');
      console.log(
        `  sample ${sample}: ${timing!.streamed ? 'streamed' : 'NOT streamed'} model request ${ms(timing!.receivedAt - sentAt)} after the send;` +
          ` model's first token -> first event_delta: ${firstDelta === undefined ? 'no deltas seen' : ms(firstDelta - modelFirst)};` +
          ` -> whole agent.message: ${ms(whole.at - modelFirst)} (model's last byte -> agent.message: ${ms(whole.at - timing!.doneAt!)});` +
          ` ${deltas.length} deltas${deltas.length ? `, the last ${ms(deltas.at(-1)!.at - timing!.doneAt!)} after the model's last byte` : ''}`,
      );
    }
  });
}

async function overhead() {
  const sessions = Number(flags.sessions);
  const turns = Number(flags.turns);
  const parallel = Math.max(1, Number(flags.parallel));
  await withBench(bench({ answerTokens: 20 }), async ({ client, model, agentId, environmentId, cpu }) => {
    const overheads: number[] = [];
    const modelTimes: number[] = [];
    /** The two halves of a turn's overhead: send -> the model request, the model's last byte -> idle seen. */
    const before: number[] = [];
    const after: number[] = [];
    const runSession = async (s: number) => {
      const session = await client.beta.sessions.create({ agent: agentId, environment_id: environmentId });
      const stream = await client.beta.sessions.events.stream(session.id);
      const watcher = watch(stream);
      for (let turn = 1; turn <= turns; turn++) {
        const text = `overhead s${s} t${turn}`;
        const sentAt = wallClock();
        await client.beta.sessions.events.send(session.id, userMessage(text));
        const idle = await watcher.until(isIdle);
        const requests = model.timings.filter((t) => t.lastText === text);
        const answering = requests.reduce((sum, t) => sum + (t.doneAt! - t.receivedAt), 0);
        overheads.push(idle.at - sentAt - answering);
        before.push(requests[0]!.receivedAt - sentAt);
        after.push(idle.at - requests.at(-1)!.doneAt!);
        modelTimes.push(answering);
      }
      stream.controller.abort();
    };
    let next = 0;
    const cpuBefore = cpu();
    await Promise.all(Array.from({ length: parallel }, async () => {
      while (next < sessions) await runSession(next++);
    }));
    const cpuAfter = cpu();
    const modelMean = modelTimes.reduce((a, b) => a + b, 0) / modelTimes.length;
    console.log(`platform overhead per turn: ${overheads.length} turns (${sessions} sessions x ${turns}, ${parallel} at once), instant model (mean ${modelMean.toFixed(1)} ms answering)`);
    console.log(`  overhead ${spread(overheads)}`);
    console.log(`    send -> model request ${spread(before)}`);
    console.log(`    model's last byte -> idle seen ${spread(after)}`);
    console.log(`  ${cpuLine(cpuBefore, cpuAfter, overheads.length)}`);
  });
}

async function many() {
  const modelMs = Number(flags['model-ms']);
  const rounds = Math.max(1, Number(flags.rounds));
  await withBench(bench({ answerTokens: 20, firstTokenMs: modelMs }), async (context) => {
    for (let round = 1; round <= rounds; round++) await manyRound(context, round, rounds);
  });
}

/** One round of the many part: `--many` clients at once, each its own session of `--many-turns` turns. */
async function manyRound({ client, model, agentId, environmentId, cpu }: Bench, round: number, rounds: number) {
  const count = Number(flags.many);
  const turns = Number(flags['many-turns']);
  const modelMs = Number(flags['model-ms']);
  const requestsBefore = model.billing.requests;
  const timingsBefore = model.timings.length;
  const outcome = { refused: 0, streamFailed: 0, failed: 0, done: 0 };
  /** Per turn: the send's own round trip, send -> the model request, the model's last byte -> idle seen. */
  const phases = { send: [] as number[], before: [] as number[], after: [] as number[] };
  const cpuBefore = cpu();
  const startedAt = wallClock();
  let createdAll = 0;
  let created = 0;
  const runClient = async (i: number) => {
    const session = await phase('create', () => client.beta.sessions.create({ agent: agentId, environment_id: environmentId }));
    if (++created === count) createdAll = wallClock();
    let watcher: ReturnType<typeof watch> | undefined;
    let stream: Awaited<ReturnType<typeof client.beta.sessions.events.stream>> | undefined;
    try {
      stream = await client.beta.sessions.events.stream(session.id);
      watcher = watch(stream);
    } catch (err) {
      if (err instanceof Anthropic.APIError && err.status === 429) outcome.refused++;
      else outcome.streamFailed++;
    }
    for (let turn = 1; turn <= turns; turn++) {
      const text = `many r${round} c${i} t${turn}`;
      const sentAt = wallClock();
      await phase('send', () => client.beta.sessions.events.send(session.id, userMessage(text)));
      phases.send.push(wallClock() - sentAt);
      const idle = await phase('waiting for idle', async () => (watcher ? watcher.until(isIdle) : { event: await pollIdle(client, session.id, turn), at: wallClock() }));
      const stop = (idle.event.stop_reason as { type?: string } | undefined)?.type;
      if (stop !== 'end_turn') throw new Error(`turn ${turn} ended ${JSON.stringify(idle.event.stop_reason)}`);
      const requests = model.timings.filter((t) => t.lastText === text);
      phases.before.push(requests[0]!.receivedAt - sentAt);
      phases.after.push(idle.at - requests.at(-1)!.doneAt!);
    }
    stream?.controller.abort();
    outcome.done++;
  };
  const results = await Promise.allSettled(Array.from({ length: count }, (_, i) => runClient(i)));
  const errors = results.flatMap((r) => (r.status === 'rejected' ? [String(r.reason)] : []));
  const kinds = new Map<string, number>();
  for (const e of errors) kinds.set(e.slice(0, 120), (kinds.get(e.slice(0, 120)) ?? 0) + 1);
  outcome.failed = errors.length;
  const wall = wallClock() - startedAt;
  const cpuAfter = cpu();
  const ideal = turns * modelMs;
  const state = round === 1 ? 'processes just started' : round === rounds ? 'warm, as in service' : 'warming';
  console.log(`many sessions, round ${round} of ${rounds} (${state}): ${count} sessions x ${turns} turns at once, model answering in ${modelMs} ms (${model.billing.requests - requestsBefore} model requests)`);
  console.log(`  wall ${ms(wall)} (all sessions created after ${ms(createdAll - startedAt)}), ideal ${ms(ideal)}: ratio ${(wall / ideal).toFixed(2)}`);
  console.log(`  sessions done ${outcome.done}, failed ${outcome.failed}; streams refused (429) ${outcome.refused}, streams failed otherwise ${outcome.streamFailed}`);
  for (const [kind, n] of kinds) console.log(`  failed ${n}x: ${kind}`);
  const inFlight = concurrencyProfile(model.timings.slice(timingsBefore).map((t) => [t.receivedAt, t.doneAt ?? t.receivedAt] as const));
  console.log(`  model requests in flight at once: max ${inFlight}`);
  console.log(`  per turn: the send ${spread(phases.send)}; send -> model request ${spread(phases.before)}; model's last byte -> idle seen ${spread(phases.after)}`);
  console.log(`  ${cpuLine(cpuBefore, cpuAfter, count * turns)}`);
}

/** `work`, its failure named by what the client was doing. */
async function phase<T>(name: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw new Error(`${name}: ${err instanceof Anthropic.APIError ? `${err.status} ${(err.error as { error?: { message?: string } })?.error?.message}` : String(err)}`);
  }
}

/** A client without a stream: the session's events, listed again until `turn` idles have happened. */
async function pollIdle(client: Anthropic, sessionId: string, turn: number): Promise<Event> {
  for (;;) {
    const idles: Event[] = [];
    for await (const listed of client.beta.sessions.events.list(sessionId, { limit: 100 })) {
      const event = listed as unknown as Event;
      if (isIdle(event)) idles.push(event);
    }
    if (idles.length >= turn) return idles[turn - 1]!;
    await Bun.sleep(100);
  }
}

/** The most intervals open at one instant. */
function concurrencyProfile(intervals: ReadonlyArray<readonly [number, number]>): number {
  const edges = intervals.flatMap(([a, b]) => [[a, 1], [b, -1]] as const).sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  let open = 0;
  let most = 0;
  for (const [, d] of edges) most = Math.max(most, (open += d));
  return most;
}

const parts = new Set(flags.parts.split(','));
if (parts.has('first-token')) await firstToken();
if (parts.has('overhead')) await overhead();
if (parts.has('many')) await many();
process.exit(0);
