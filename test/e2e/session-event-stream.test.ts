/**
 * A session's event stream across replicas, through the official SDK: `events.stream()` held open
 * on a gateway in ANOTHER process than the gateway the events are sent through (and a second
 * deployments replica, also its own process, taking a share of the sends) sees every event in the
 * log's order, with no gap and no duplicate; a reconnect with the last event id it saw resumes
 * exactly after it. Nothing here waits for time: every read waits for the events it expects.
 */
import type Anthropic from '@anthropic-ai/sdk';
import { describeEachSdk, SDKS } from '../support/sdk';
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { apiClient } from '../support/api';
import { expectError } from '../support/expect';
import { createDeployment, deploymentWorld } from '../support/fixtures';
import { gatewayPort, spawnReplica, type ServiceProcess } from '../support/processes';
import { expectSdkShape } from '../support/sdk-shape';
import { Stack } from '../support/stack';

let stack: Stack;
const processes: ServiceProcess[] = [];
/** The gateway in this process, and the one in its own process. */
let here: Anthropic;
let there: Anthropic;
let thereUrl = '';
let secret = '';
let deployment: any;

beforeAll(async () => {
  stack = await Stack.start({ services: ['catalog', 'deployments', 'vaults'] });
  secret = (await stack.createKey()).secret;
  for (const service of ['deployments', 'gateway'] as const) {
    const { proc, line } = await spawnReplica(stack, service);
    processes.push(proc);
    if (service === 'gateway') thereUrl = `http://127.0.0.1:${gatewayPort(line)}`;
  }
  // The current SDK, unless a block below sets its own.
  here = new SDKS[0]!.Anthropic({ apiKey: secret, baseURL: stack.url, maxRetries: 0 });
  there = new SDKS[0]!.Anthropic({ apiKey: secret, baseURL: thereUrl, maxRetries: 0 });
  const api = apiClient(stack.url, secret);
  deployment = await createDeployment(api, (await deploymentWorld(api)).body());
}, 60_000);

afterAll(async () => {
  for (const proc of processes) proc.kill('SIGKILL');
  await Promise.all(processes.map((p) => p.exited));
  await stack?.stop();
});

/** The next `count` events of an open stream, as they arrive. */
async function take(iterator: AsyncIterator<any>, count: number): Promise<any[]> {
  const events = [];
  while (events.length < count) {
    const next = await iterator.next();
    if (next.done) throw new Error(`the stream ended after ${events.length} of ${count} events`);
    events.push(next.value);
  }
  return events;
}

const message = (text: string) => ({ type: 'user.message' as const, content: [{ type: 'text' as const, text }] });
const ids = (events: Array<{ id: string }>) => events.map((e) => e.id);

// Both SDK versions, each streaming from the other gateway process. The last test below stops
// that process, so it runs once, after both.
describeEachSdk('event streams across gateway processes', (sdk) => {
  beforeAll(() => {
    here = new sdk.Anthropic({ apiKey: secret, baseURL: stack.url, maxRetries: 0 });
    there = new sdk.Anthropic({ apiKey: secret, baseURL: thereUrl, maxRetries: 0 });
  });

  test('a stream on one gateway process sees what another gateway sends, in the log order, no gap, no duplicate; Last-Event-ID resumes exactly after', async () => {
    const run = await here.beta.deployments.run(deployment.id);
    const sessionId = run.session_id!;

    // Opened before anything is sent: it starts at the log's end (the initial events are history).
    const stream = await there.beta.sessions.events.stream(sessionId);
    const iterator = stream[Symbol.asyncIterator]();

    // Twelve sends at once through the other gateway (two deployments replicas share them): the log
    // orders them; the stream must show that order.
    const sends = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        here.beta.sessions.events.send(sessionId, { events: i % 3 === 0 ? [message(`m${i}`), { type: 'user.interrupt' }] : [message(`m${i}`)] }),
      ),
    );
    const sent = sends.flatMap((s) => s.data!);
    expect(sent).toHaveLength(16);

    const seen = await take(iterator, sent.length);
    const log = [];
    for await (const event of here.beta.sessions.events.list(sessionId, { limit: 100 })) log.push(event);
    const logged = log.slice(1); // after the deployment's initial user.message
    expect(ids(seen)).toEqual(ids(logged));
    expect(new Set(ids(seen)).size).toBe(sent.length);
    expect(new Set(ids(seen))).toEqual(new Set(ids(sent)));
    for (const event of seen) expectSdkShape(event, 'BetaManagedAgentsStreamSessionEvents');
    // Leaving the loop closes the connection (the SDK aborts it).
    await iterator.return?.();

    // Reconnect on the other gateway with the last event id seen mid-way: exactly what followed it.
    const cut = 5;
    const resumed = await here.beta.sessions.events.stream(sessionId, {}, { headers: { 'Last-Event-ID': seen[cut].id } });
    const resumedIterator = resumed[Symbol.asyncIterator]();
    const missed = await take(resumedIterator, seen.length - cut - 1);
    expect(ids(missed)).toEqual(ids(seen.slice(cut + 1)));
    // ... and then it follows live, what a third party sends through the first gateway.
    const later = await there.beta.sessions.events.send(sessionId, { events: [message('later')] });
    expect(ids(await take(resumedIterator, 1))).toEqual(ids(later.data!));
    await resumedIterator.return?.();
  });

  test('a stream refuses an unknown Last-Event-ID, another tenant and a missing session before it starts', async () => {
    const run = await here.beta.deployments.run(deployment.id);
    const api = apiClient(thereUrl, secret);
    const path = `/v1/sessions/${run.session_id}/events/stream`;
    expectError(await api('GET', path, { headers: { 'last-event-id': 'sevt_000000000000000000000000' } }), 400, 'invalid_request_error', 'Last-Event-ID');
    expectError(await api('GET', path, { headers: { 'last-event-id': 'not an id' } }), 400, 'invalid_request_error', 'Last-Event-ID');
    expectError(await apiClient(thereUrl, (await stack.createKey()).secret)('GET', path), 404, 'not_found_error');
    expectError(await api('GET', '/v1/sessions/sesn_000000000000000000000000/events/stream'), 404, 'not_found_error');
    expectError(await api('GET', path, { query: { nope: '1' } }), 400, 'invalid_request_error', 'nope');
    expectError(await api('GET', `${path}?event_deltas[]=agent.nope`), 400, 'invalid_request_error', 'event_deltas[]');
    // Previews are accepted (none are produced before a runtime exists).
    const previewing = await there.beta.sessions.events.stream(run.session_id!, { event_deltas: ['agent.message', 'agent.thinking'] });
    previewing.controller.abort();
  });

  test('deleting the session ends its open streams, after a session.deleted event', async () => {
    const run = await here.beta.deployments.run(deployment.id);
    const stream = await there.beta.sessions.events.stream(run.session_id!);
    const iterator = stream[Symbol.asyncIterator]();
    await here.beta.sessions.delete(run.session_id!);
    const [deleted] = await take(iterator, 1);
    expect(deleted).toEqual({ id: expect.stringMatching(/^sevt_/), type: 'session.deleted', processed_at: expect.any(String) });
    expectSdkShape(deleted, 'BetaManagedAgentsStreamSessionEvents');
    expect((await iterator.next()).done).toBe(true);
  });
});

test('a gateway that stops ends its open streams cleanly and exits', async () => {
  const run = await here.beta.deployments.run(deployment.id);
  const stream = await there.beta.sessions.events.stream(run.session_id!);
  const iterator = stream[Symbol.asyncIterator]();
  const gateway = processes.at(-1)!; // the gateway, spawned after the deployments replica
  gateway.kill('SIGTERM');
  expect((await iterator.next()).done).toBe(true);
  expect(await gateway.exited).toBe(0);
});
