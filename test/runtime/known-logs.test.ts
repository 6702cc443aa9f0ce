/**
 * A drive reads only what its session's log added since the last drive on this replica, and
 * nothing when its notice carries that (domain/known-logs.ts), through the real parts: the
 * runtime's follow requests to the deployments service, seen on the bus, ask from where the last
 * drive ended, or are not made, and the model still gets the whole conversation.
 */
import { expect, test } from 'bun:test';
import { rpcSubject } from '@shared/bus/subject';
import { sessionEventSubjects } from '@shared/bus/subjects/session-events';
import { createAgent, createEnvironment, uploadFile } from '../support/fixtures';
import { eventually } from '../support/eventually';
import { runtimeSettled } from '../support/runtime-settled';
import { sessionLog, useRuntimeWorld } from '../support/runtime-world';

const world = useRuntimeWorld();

test("a session's second turn reads nothing (its notice carries it), a third after a change of the row reads from where the second ended; the model gets the whole conversation", async () => {
  const client = world.sdk();
  const agent = await createAgent(world.api);
  const environment = await createEnvironment(world.api);
  const session = await client.beta.sessions.create({ agent: agent.id, environment_id: environment.id });
  const deployments = world.stack.service('deployments');
  const reads: Array<{ after: unknown; with_session?: boolean }> = [];
  const sub = deployments.nc.subscribe(rpcSubject(world.stack.env('deployments').BUS_PREFIX!, sessionEventSubjects.follow), {
    callback: (_err, msg) => {
      const request = msg.json<{ session_id: string; after: unknown; with_session?: boolean }>();
      if (request.session_id === session.id && request.with_session) reads.push(request);
    },
  });
  await deployments.nc.flush();
  const usage = { input_tokens: 10, output_tokens: 5 };
  const turn = async (text: string, answer: string) => {
    const rests = (await sessionLog(client, session.id)).filter((e) => e.type === 'session.status_idle').length;
    world.model.reply({ content: [{ type: 'text', text: answer }], stop_reason: 'end_turn', usage });
    await client.beta.sessions.events.send(session.id, { events: [{ type: 'user.message', content: [{ type: 'text', text }] }] });
    await eventually('the turn to end', async () => ((await sessionLog(client, session.id)).filter((e) => e.type === 'session.status_idle').length > rests ? true : undefined), {
      timeoutMs: 20_000,
      intervalMs: 50,
    });
    await runtimeSettled(world.stack);
  };
  try {
    await turn('First question', 'First answer');
    expect(reads.map((r) => r.after)).toEqual([{ sequence: 0 }]);
    await turn('Second question', 'Second answer');
    // The second turn's drive read nothing: its notice carried the message, and the session it
    // held is the one the send saw (the same revision of its row).
    expect(reads).toHaveLength(1);
    const conversation = JSON.stringify(world.model.requests.at(-1)!.messages);
    for (const said of ['First question', 'First answer', 'Second question']) expect(conversation).toContain(said);
    // A change of the session's row (a resource added, no event) moves its revision: the next
    // drive reads the session again, and the log only from where the last drive ended.
    const secondEnd = (await sessionLog(client, session.id)).length;
    const file = await uploadFile(world.api);
    await client.beta.sessions.resources.add(session.id, { type: 'file', file_id: file.id });
    await turn('Third question', 'Third answer');
    expect(reads.map((r) => r.after)).toEqual([{ sequence: 0 }, { sequence: secondEnd }]);
    const third = JSON.stringify(world.model.requests.at(-1)!.messages);
    for (const said of ['First question', 'Second answer', 'Third question']) expect(third).toContain(said);
  } finally {
    sub.unsubscribe();
  }
}, 60_000);
