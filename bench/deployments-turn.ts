/**
 * The deployments service's share of an agent turn, alone: the four bus requests a turn makes of
 * it (the client's send, the runtime's read with the session, its two appends), in a loop in
 * this process against real MariaDB and NATS, one session after another. Prints CPU per turn
 * and per request (this process: the service and its callers' bus clients both; the service's
 * own share is what changes when its handlers do). `--profile` writes a CPU profile of the
 * loop (`BUN_OPTIONS=--cpu-prof` is the whole run, setup included). Not part of `bun test`.
 *
 *   bun bench/deployments-turn.ts --turns 2000
 */
import { parseArgs } from 'node:util';
import { systemContext } from '@shared/bus/call-context';
import { sessionEventSubjects } from '@shared/bus/subjects/session-events';
import { newId } from '@shared/ids/ids';
import { apiClient } from '../test/support/api';
import { createAgent, createEnvironment } from '../test/support/fixtures';
import { Stack } from '../test/support/stack';

const { values: flags } = parseArgs({
  args: process.argv.slice(2),
  options: { turns: { type: 'string', default: '1000' }, 'turns-per-session': { type: 'string', default: '5' } },
});
const turns = Number(flags.turns);
const perSession = Number(flags['turns-per-session']);

// As deployed: no reply validation (NODE_ENV=test validates every bus reply), quiet logs.
const stack = await Stack.start({ services: ['catalog', 'deployments', 'vaults'], env: { NODE_ENV: 'development', LOG_LEVEL: 'warn' } });
try {
  const { secret, tenant } = await stack.createKey();
  const api = apiClient(stack.url, secret);
  const agent = await createAgent(api, { model: 'claude-sonnet-5-5', system: 'You answer briefly.', tools: [] });
  const environment = await createEnvironment(api, { config: { type: 'self_hosted' } });
  const bus = stack.service('deployments').client;
  const ctx = () => systemContext(newId('request'), { ...tenant, scope: 'read_write', key_id: 'bench' });
  const spent = { send: 0, read: 0, open: 0, answer: 0 };
  const cpu = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  const timed = async <T>(part: keyof typeof spent, work: () => Promise<T>): Promise<T> => {
    const before = cpu();
    const result = await work();
    spent[part] += cpu() - before;
    return result;
  };
  const usage = { cache_creation_input_tokens: 0, cache_read_input_tokens: 18, input_tokens: 0, output_tokens: 40 };
  const oneTurn = async (sessionId: string, n: number) => {
    await timed('send', () => bus.call(sessionEventSubjects.send, ctx(), { session_id: sessionId, events: [{ type: 'user.message', content: [{ type: 'text', text: `turn ${n}` }] }] }));
    const read = await timed('read', () => bus.call(sessionEventSubjects.follow, ctx(), { session_id: sessionId, after: { sequence: 0 }, limit: 1000, with_session: true }));
    const opened = await timed('open', () =>
      bus.call(sessionEventSubjects.append, ctx(), { session_id: sessionId, after_sequence: read.last, events: [{ type: 'session.status_running' }, { type: 'span.model_request_start' }], caller_drives: true }),
    );
    const start = opened.events.at(-1)!.event.id;
    await timed('answer', () =>
      bus.call(sessionEventSubjects.append, ctx(), {
        session_id: sessionId,
        after_sequence: opened.last,
        events: [
          { type: 'agent.message', content: [{ type: 'text', text: 'A brief answer.' }] },
          { type: 'span.model_request_end', is_error: false, model_request_start_id: start, model_usage: usage },
          { type: 'session.status_idle', stop_reason: { type: 'end_turn' }, stop_details: null },
        ] as never,
        caller_drives: true,
      }),
    );
  };
  const newSession = async () => (await api('POST', '/v1/sessions', { body: { agent: agent.id, environment_id: environment.id } })).body.id as string;
  // Warm-up: JIT, pools, caches.
  for (let i = 0; i < 50; i++) await oneTurn(await newSession(), i);
  for (const key of Object.keys(spent) as Array<keyof typeof spent>) spent[key] = 0;
  const sessions = await Promise.all(Array.from({ length: Math.ceil(turns / perSession) }, newSession));
  const before = cpu();
  for (let i = 0; i < turns; i++) await oneTurn(sessions[Math.floor(i / perSession)]!, i);
  const total = cpu() - before;
  const per = (ms: number) => ((ms / turns) * 1000).toFixed(0);
  console.log(`deployments turn, in process: ${turns} turns (${perSession} per session)`);
  console.log(`  CPU per turn ${per(total)} us: send ${per(spent.send)}, read with session ${per(spent.read)}, append (span start) ${per(spent.open)}, append (answer) ${per(spent.answer)}`);
} finally {
  await stack.stop();
}
