/**
 * A turn compiles no schema anew once the stack is warm: TypeBox compiles a schema once per
 * schema object (shared/validation/validate.ts), so a schema built per request anywhere on the
 * path (the gateway's routes and streams, the bus on both sides, the live feeds, the runtime's
 * drive) is compiled at every request. The whole stack runs in this process, so one count covers it.
 */
import { expect, test } from 'bun:test';
import { schemaCompilations } from '@shared/validation/validate';
import { createAgent, createEnvironment } from '../support/fixtures';
import { eventually } from '../support/eventually';
import { runtimeSettled } from '../support/runtime-settled';
import { sessionLog, useRuntimeWorld } from '../support/runtime-world';

const world = useRuntimeWorld();

async function sessionWithTwoTurns() {
  const client = world.sdk();
  const agent = await createAgent(world.api);
  const environment = await createEnvironment(world.api);
  const session = await client.beta.sessions.create({ agent: agent.id, environment_id: environment.id });
  const stream = await client.beta.sessions.events.stream(session.id, { event_deltas: ['agent.message'] });
  for (const text of ['One', 'Two']) {
    world.model.reply({ content: [{ type: 'text', text: `Answer to ${text}` }], stop_reason: 'end_turn', usage: { input_tokens: 10, output_tokens: 5 } });
    const rests = (await sessionLog(client, session.id)).filter((e) => e.type === 'session.status_idle').length;
    await client.beta.sessions.events.send(session.id, { events: [{ type: 'user.message', content: [{ type: 'text', text }] }] });
    await eventually('the turn to end', async () => ((await sessionLog(client, session.id)).filter((e) => e.type === 'session.status_idle').length > rests ? true : undefined), {
      timeoutMs: 20_000,
      intervalMs: 50,
    });
    await runtimeSettled(world.stack);
  }
  stream.controller.abort();
  await client.beta.sessions.events.list(session.id);
  await client.beta.sessions.retrieve(session.id);
}

test('a second session and its turns compile no schema the first did not', async () => {
  await sessionWithTwoTurns();
  const warm = schemaCompilations();
  await sessionWithTwoTurns();
  expect(schemaCompilations() - warm).toBe(0);
}, 60_000);
