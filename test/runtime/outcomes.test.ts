/**
 * Outcomes, end to end through the real parts: a session given a `user.define_outcome` (through
 * the unchanged SDK) runs the evaluate-and-revise loop against a local Messages API server with
 * scripted replies: the agent works, a grader request scores the work against the rubric, a
 * `needs_revision` verdict goes back to the agent as feedback, and the session rests on a final
 * verdict; the log's `span.outcome_evaluation_*` events and the session's `outcome_evaluations`
 * say so, and the grader's tokens count against the session's usage.
 */
import { describe, expect, test } from 'bun:test';
import { sessionLog, useRuntimeWorld } from '../support/runtime-world';
import { eventually } from '../support/eventually';
import type { ScriptedMessage } from '../support/fake-model-api';
import { sdkShapeProblems } from '../support/sdk-shape';
import { createAgent, createEnvironment } from '../support/fixtures';
import { ALL_BACKEND_SERVICES } from '../support/stack';

const world = useRuntimeWorld({ services: ALL_BACKEND_SERVICES });
const sdk = () => world.sdk();

const agentSays = (text: string, input_tokens = 100, output_tokens = 10): ScriptedMessage => ({
  content: [{ type: 'text', text }],
  stop_reason: 'end_turn',
  usage: { input_tokens, output_tokens },
});
const graderSays = (result: string, explanation: string): ScriptedMessage => ({
  content: [{ type: 'tool_use', id: `toolu_${result}`, name: 'submit_verdict', input: { result, explanation } }],
  stop_reason: 'tool_use',
  usage: { input_tokens: 50, output_tokens: 5 },
});

/** In a session's log: one request answered with a message, and one evaluation of the outcome. */
const AGENT_REPLY = ['span.model_request_start', 'agent.message', 'span.model_request_end'];
const EVALUATION = ['span.outcome_evaluation_start', 'span.outcome_evaluation_end'];

const RUBRIC = 'The haiku has exactly three lines and mentions the sea.';

async function sessionWithOutcome(maxIterations: number) {
  const agent = await createAgent(world.api, { system: 'You write poems.' });
  const environment = await createEnvironment(world.api);
  const session = await sdk().beta.sessions.create({ agent: agent.id, environment_id: environment.id });
  await sdk().beta.sessions.events.send(session.id, {
    events: [{ type: 'user.define_outcome', description: 'Write a haiku about the sea', rubric: { type: 'text', content: RUBRIC }, max_iterations: maxIterations }],
  });
  return session.id;
}

const logOf = (sessionId: string) => sessionLog(sdk(), sessionId);

const rested = (sessionId: string) =>
  eventually(
    'the session to rest',
    async () => {
      const log = await logOf(sessionId);
      return log.at(-1)?.type === 'session.status_idle' ? log : undefined;
    },
    { timeoutMs: 30_000, intervalMs: 100 },
  );

describe('an outcome is evaluated and revised', () => {
  test('needs_revision goes back to the agent with the grader’s feedback; satisfied rests the session', async () => {
    const first = world.model.requests.length;
    world.model.reply(
      agentSays('Waves', 100, 10),
      graderSays('needs_revision', 'Only one line; it needs three.'),
      agentSays('Waves fold on the shore\nsalt wind carries the gulls home\nthe sea keeps its time', 200, 30),
      graderSays('satisfied', 'Three lines, and the sea is there.'),
    );
    const sessionId = await sessionWithOutcome(3);
    const log = await rested(sessionId);

    expect(log.map((e) => e.type)).toEqual(['user.define_outcome', 'session.status_running', ...AGENT_REPLY, ...EVALUATION, ...AGENT_REPLY, ...EVALUATION, 'session.status_idle']);
    const outcomeId = log[0].outcome_id;
    const [start0, end0, start1, end1] = [log[5], log[6], log[10], log[11]];
    expect(start0).toMatchObject({ outcome_id: outcomeId, iteration: 0 });
    expect(end0).toMatchObject({ outcome_id: outcomeId, iteration: 0, outcome_evaluation_start_id: start0.id, result: 'needs_revision', explanation: 'Only one line; it needs three.' });
    expect(end0.usage).toMatchObject({ input_tokens: 50, output_tokens: 5 });
    expect(start1).toMatchObject({ outcome_id: outcomeId, iteration: 1 });
    expect(end1).toMatchObject({ iteration: 1, outcome_evaluation_start_id: start1.id, result: 'satisfied' });
    expect(log.at(-1)!.stop_reason).toEqual({ type: 'end_turn' });

    // Four requests: agent, grader, agent (with the feedback), grader.
    const requests = world.model.requests.slice(first);
    expect(requests).toHaveLength(4);
    const grader = requests[1];
    expect(grader.tool_choice).toEqual({ type: 'tool', name: 'submit_verdict' });
    expect(JSON.stringify(grader.messages)).toContain(RUBRIC);
    expect(JSON.stringify(grader.messages)).toContain('Waves');
    expect(JSON.stringify(requests[2].messages)).toContain('Only one line; it needs three.');
    expect(requests[2].tool_choice).toBeUndefined();

    const session = await sdk().beta.sessions.retrieve(sessionId);
    expect(session.status).toBe('idle');
    expect(session.outcome_evaluations).toEqual([
      {
        type: 'outcome_evaluation',
        outcome_id: outcomeId,
        description: 'Write a haiku about the sea',
        result: 'satisfied',
        iteration: 1,
        explanation: 'Three lines, and the sea is there.',
        completed_at: end1.processed_at,
      },
    ]);
    // Every event and the session as the SDK types them.
    expect(log.flatMap((event) => sdkShapeProblems(event, 'BetaManagedAgentsSessionEvent'))).toEqual([]);
    expect(sdkShapeProblems(session, 'BetaManagedAgentsSession')).toEqual([]);
    // Agent and grader tokens alike: 100+50+200+50 in, 10+5+30+5 out.
    expect(session.usage).toMatchObject({ input_tokens: 400, output_tokens: 50 });
  }, 60_000);

  test('at max_iterations the outcome ends unmet, the agent closes with one last turn, and no further evaluation runs', async () => {
    const first = world.model.requests.length;
    world.model.reply(agentSays('Waves'), graderSays('needs_revision', 'Only one line.'), agentSays('I could not finish the haiku.'));
    const sessionId = await sessionWithOutcome(1);
    const log = await rested(sessionId);
    expect(log.map((e) => e.type)).toEqual(['user.define_outcome', 'session.status_running', ...AGENT_REPLY, ...EVALUATION, ...AGENT_REPLY, 'session.status_idle']);
    expect(log[6]).toMatchObject({ result: 'max_iterations_reached', iteration: 0 });
    expect(world.model.requests.slice(first)).toHaveLength(3);
    const session = await sdk().beta.sessions.retrieve(sessionId);
    expect(session.outcome_evaluations[0]).toMatchObject({ result: 'max_iterations_reached', iteration: 0, explanation: 'Only one line.' });
    expect(session.outcome_evaluations[0].completed_at).toBe(log[6].processed_at);
  }, 60_000);

  test('an interrupt while the grader is out ends the outcome interrupted and rests the session', async () => {
    const first = world.model.requests.length;
    world.model.reply(agentSays('Waves'));
    const releaseGrader = world.model.replyHeld(graderSays('satisfied', 'fine'));
    const sessionId = await sessionWithOutcome(3);
    await world.model.received(first + 2);
    const evaluating = await sdk().beta.sessions.retrieve(sessionId);
    expect(evaluating.outcome_evaluations[0].result).toBe('evaluating');
    await sdk().beta.sessions.events.send(sessionId, { events: [{ type: 'user.interrupt' }] });
    releaseGrader();
    const log = await rested(sessionId);
    expect(log.map((e) => e.type).slice(-4)).toEqual(['span.outcome_evaluation_start', 'user.interrupt', 'span.outcome_evaluation_end', 'session.status_idle']);
    expect(log.at(-2)).toMatchObject({ result: 'interrupted', outcome_evaluation_start_id: log.at(-4)!.id });
    const session = await sdk().beta.sessions.retrieve(sessionId);
    expect(session.outcome_evaluations[0].result).toBe('interrupted');
    expect(world.model.requests.slice(first)).toHaveLength(2);
  }, 60_000);
});
