/**
 * A model answer previewed while it is written (issue 29): a client's `events.stream` with
 * `event_deltas` sees the agent.message open (`event_start`), its text fragments (`event_delta`)
 * while the model is still writing, then the whole buffered event under the same id; a client
 * that does not ask sees what it always saw, and `events.list` holds each event once. Through
 * each SDK version, the real stack, and a fake Messages API that streams as the API does. Nothing
 * waits for time: the fake pauses mid-answer until the test has seen the first fragment. An
 * interrupt stops an answer being written: no agent.message, the request's span ends it.
 */
import { expect, test } from 'bun:test';
import { describeEachSdk } from '../support/sdk';
import { createAgent, createEnvironment } from '../support/fixtures';
import { sessionLog, useRuntimeWorld } from '../support/runtime-world';
import { expectSdkShape } from '../support/sdk-shape';

const world = useRuntimeWorld();

/** Reads a stream until `until` matches, returning everything read up to and with it. */
async function readUntil(iterator: AsyncIterator<any>, until: (event: any) => boolean): Promise<any[]> {
  const seen = [];
  for (;;) {
    const next = await iterator.next();
    if (next.done) throw new Error(`the stream ended after ${seen.map((e) => e.type).join(', ')}`);
    seen.push(next.value);
    if (until(next.value)) return seen;
  }
}

const usage = { input_tokens: 100, output_tokens: 12 };
const PREVIEW_TYPES = ['event_start', 'event_delta'];

async function newSession(client: ReturnType<typeof world.sdk>) {
  const agent = await createAgent(world.api);
  const environment = await createEnvironment(world.api, { config: { type: 'self_hosted' } });
  return client.beta.sessions.create({ agent: agent.id, environment_id: environment.id });
}

describeEachSdk('previews of an answer being written', (sdk) => {
  test('fragments while the model writes, then the whole agent.message under the same id; listed once; none for a stream that did not ask', async () => {
    const client = world.sdk(sdk.Anthropic);
    const session = await newSession(client);
    const previewing = (await client.beta.sessions.events.stream(session.id, { event_deltas: ['agent.message'] }))[Symbol.asyncIterator]();
    const plain = (await client.beta.sessions.events.stream(session.id))[Symbol.asyncIterator]();
    const text = 'Three pallets left the north dock at dawn.';
    const answer = world.model.replyPausedMidway({ content: [{ type: 'text', text }], stop_reason: 'end_turn', usage });
    await client.beta.sessions.events.send(session.id, { events: [{ type: 'user.message', content: [{ type: 'text', text: 'What left the dock?' }] }] });

    // The model has written one fragment and waits: the client sees it now, not at the end.
    await answer.midway;
    const opened = await readUntil(previewing, (e) => e.type === 'event_delta');
    const [start, delta] = opened.slice(-2);
    expect(start).toEqual({ type: 'event_start', event: { id: expect.stringMatching(/^sevt_/), type: 'agent.message' } });
    expect(delta).toEqual({ type: 'event_delta', event_id: start.event.id, delta: { type: 'content_delta', index: 0, content: { type: 'text', text: 'Three ' } } });
    expectSdkShape(start, 'BetaManagedAgentsStreamSessionEvents');
    expectSdkShape(delta, 'BetaManagedAgentsStreamSessionEvents');
    expect(opened.filter((e) => e.type === 'agent.message')).toEqual([]);

    answer.finish();
    const rest = await readUntil(previewing, (e) => e.type === 'agent.message');
    const message = rest.at(-1);
    expect(message).toMatchObject({ id: start.event.id, type: 'agent.message', content: [{ type: 'text', text }] });
    // Best effort, never wrong: whatever fragments came belong to this event and spell its beginning.
    const fragments = [delta, ...rest.filter((e) => e.type === 'event_delta')];
    expect(fragments.every((f) => f.event_id === start.event.id)).toBe(true);
    expect(text.startsWith(fragments.map((f) => f.delta.content.text).join(''))).toBe(true);
    await readUntil(previewing, (e) => e.type === 'session.status_idle');

    const unasked = await readUntil(plain, (e) => e.type === 'session.status_idle');
    expect(unasked.filter((e) => PREVIEW_TYPES.includes(e.type))).toEqual([]);
    expect(unasked.filter((e) => e.type === 'agent.message').map((e) => e.id)).toEqual([start.event.id]);

    const log = await sessionLog(client, session.id);
    expect(log.filter((e) => e.type === 'agent.message').map((e) => e.id)).toEqual([start.event.id]);
    expect(log.filter((e) => PREVIEW_TYPES.includes(e.type))).toEqual([]);
    expect(new Set(log.map((e) => e.id)).size).toBe(log.length);
    // The model was asked to stream; the buffered event is the whole answer.
    expect((world.model.requests.at(-1) as { stream?: boolean }).stream).toBe(true);
  });

  test('an interrupt stops the answer being written: the span ends the preview, no agent.message, the model is not asked again', async () => {
    const client = world.sdk(sdk.Anthropic);
    const session = await newSession(client);
    const previewing = (await client.beta.sessions.events.stream(session.id, { event_deltas: ['agent.message'] }))[Symbol.asyncIterator]();
    const answer = world.model.replyPausedMidway({ content: [{ type: 'text', text: 'A very long report follows.' }], stop_reason: 'end_turn', usage });
    const requests = world.model.requests.length;
    await client.beta.sessions.events.send(session.id, { events: [{ type: 'user.message', content: [{ type: 'text', text: 'Write the report.' }] }] });
    await answer.midway;
    const [start] = (await readUntil(previewing, (e) => e.type === 'event_delta')).filter((e) => e.type === 'event_start');

    await client.beta.sessions.events.send(session.id, { events: [{ type: 'user.interrupt' }] });
    const rest = await readUntil(previewing, (e) => e.type === 'session.status_idle');
    expect(rest.filter((e) => e.type === 'agent.message')).toEqual([]);
    const end = rest.find((e) => e.type === 'span.model_request_end');
    // What the request was known to cost when it stopped (message_start's input tokens) is counted.
    expect(end).toMatchObject({ is_error: true, model_usage: { input_tokens: usage.input_tokens } });
    expect(rest.at(-1)).toMatchObject({ stop_reason: { type: 'end_turn' } });
    expect(world.model.requests.length).toBe(requests + 1);
    const log = await sessionLog(client, session.id);
    expect(log.map((e) => e.type)).toEqual([
      'user.message',
      'session.status_running',
      'span.model_request_start',
      'user.interrupt',
      'span.model_request_end',
      'session.status_idle',
    ]);
    expect(log.find((e) => e.id === start.event.id)).toBeUndefined();
    expect((await client.beta.sessions.retrieve(session.id)).usage).toMatchObject({ input_tokens: usage.input_tokens });
    answer.finish();
  });

  test('thinking is previewed start-only, and only the asked types are previewed', async () => {
    const client = world.sdk(sdk.Anthropic);
    const session = await newSession(client);
    const previewing = (await client.beta.sessions.events.stream(session.id, { event_deltas: ['agent.thinking'] }))[Symbol.asyncIterator]();
    world.model.reply({
      content: [
        { type: 'thinking', thinking: 'The dock log says three.', signature: 'sig' },
        { type: 'text', text: 'Three pallets.' },
      ],
      stop_reason: 'end_turn',
      usage,
    });
    await client.beta.sessions.events.send(session.id, { events: [{ type: 'user.message', content: [{ type: 'text', text: 'How many?' }] }] });
    const seen = await readUntil(previewing, (e) => e.type === 'session.status_idle');
    const previews = seen.filter((e) => PREVIEW_TYPES.includes(e.type));
    const thinking = seen.find((e) => e.type === 'agent.thinking');
    expect(previews).toEqual([{ type: 'event_start', event: { id: thinking.id, type: 'agent.thinking' } }]);
    expect(seen.indexOf(previews[0])).toBeLessThan(seen.indexOf(thinking));
    expect(seen.find((e) => e.type === 'agent.message')).toMatchObject({ content: [{ type: 'text', text: 'Three pallets.' }] });
  });
});
