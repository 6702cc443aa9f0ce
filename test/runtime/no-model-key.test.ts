/**
 * A runtime without a model key (MODEL_API_KEY unset, what `bun run dev` runs with): a session
 * that needs the model records one error and rests, and stays at rest. It used to append
 * `session.error` + `session.status_idle` for ever (about 250 events a second), each append's own
 * notice driving the session again. Counted after the runtime has handled every notice
 * (test/support/runtime-settled.ts), so no wait decides the count.
 */
import { describe, expect, test } from 'bun:test';
import type Anthropic from '@anthropic-ai/sdk';
import { useRuntimeWorld } from '../support/runtime-world';
import { eventually } from '../support/eventually';
import { createAgent, createEnvironment } from '../support/fixtures';
import { runtimeSettled } from '../support/runtime-settled';

const world = useRuntimeWorld({ withModel: false });
const sdk = () => world.sdk();
const types = async (sessionId: string) => (await sdk().beta.sessions.events.list(sessionId, { limit: 1000 })).data.map((e) => e.type);
const say = (sessionId: string, text: string) => sdk().beta.sessions.events.send(sessionId, { events: [{ type: 'user.message', content: [{ type: 'text', text }] }] });

describe('a runtime with no model key', () => {
  test('one error and idle per message, nothing more whatever else is sent', async () => {
    const agent = await createAgent(world.api);
    const environment = await createEnvironment(world.api);
    const session = await sdk().beta.sessions.create({ agent: agent.id, environment_id: environment.id });
    await say(session.id, 'Hello');
    await eventually('the session to rest', async () => ((await types(session.id)).at(-1) === 'session.status_idle' ? true : undefined), {
      timeoutMs: 20_000,
      intervalMs: 50,
    });
    await runtimeSettled(world.stack);
    expect(await types(session.id)).toEqual(['user.message', 'session.error', 'session.status_idle']);
    const log = (await sdk().beta.sessions.events.list(session.id, { limit: 1000 })).data;
    const error = (log[1] as Anthropic.Beta.Sessions.BetaManagedAgentsSessionErrorEvent).error;
    expect(error.message).toContain('MODEL_API_KEY');
    // The session goes idle, not terminated: the SDK's `exhausted`, not `terminal`.
    expect(error.retry_status).toEqual({ type: 'exhausted' });
    expect((await sdk().beta.sessions.retrieve(session.id)).status).toBe('idle');

    // An interrupt is no new input: it changes nothing for a session already at rest.
    await sdk().beta.sessions.events.send(session.id, { events: [{ type: 'user.interrupt' }] });
    await runtimeSettled(world.stack);
    expect(await types(session.id)).toEqual(['user.message', 'session.error', 'session.status_idle', 'user.interrupt']);

    // A new message is new input: one more error and rest, and no more.
    await say(session.id, 'Anyone there?');
    await runtimeSettled(world.stack);
    expect((await types(session.id)).slice(4)).toEqual(['user.message', 'session.error', 'session.status_idle']);
    expect((await sdk().beta.sessions.retrieve(session.id)).status).toBe('idle');
  }, 60_000);
});
