import { describe, expect, test } from 'bun:test';
import type { SessionEvent } from '@shared/schema/session-event';
import { nextStep } from '../../../services/runtime/src/domain/next-step';
import { readVerdict } from '../../../services/runtime/src/domain/outcome-grading';
import { readLogState, type LoggedEvent } from '../../../services/runtime/src/domain/session-log';

/** The evaluate-and-revise loop as the log decides it: what comes next after each kind of event. */

const usage = { input_tokens: 1, output_tokens: 1, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };
let ids = 0;
const log = (...bodies: Array<Record<string, unknown>>): LoggedEvent[] =>
  bodies.map((body, i) => ({ sequence: i + 1, event: { id: `sevt_${++ids}`, processed_at: 't', ...body } as SessionEvent }));

const defined = { type: 'user.define_outcome', outcome_id: 'outc_1', description: 'd', rubric: { type: 'text', content: 'r' }, max_iterations: 2 };
const turn = (...agent: Array<Record<string, unknown>>) => [
  { type: 'span.model_request_start' },
  ...agent,
  { type: 'span.model_request_end', is_error: false, model_request_start_id: 'x', model_usage: usage },
];
const said = { type: 'agent.message', content: [{ type: 'text', text: 'done' }] };
const verdict = (iteration: number, result: string) => [
  { type: 'span.outcome_evaluation_start', outcome_id: 'outc_1', iteration },
  { type: 'span.outcome_evaluation_end', outcome_id: 'outc_1', iteration, outcome_evaluation_start_id: 'y', result, explanation: 'e', usage },
];
const next = (events: LoggedEvent[], reached = false) => nextStep(readLogState(events), { reached });

describe('the outcome loop', () => {
  test('a defined outcome is worked on, then graded once the agent ends its turn', () => {
    expect(next(log(defined)).kind).toBe('callModel');
    const step = next(log(defined, { type: 'session.status_running' }, ...turn(said)));
    expect(step).toMatchObject({ kind: 'evaluateOutcome', startId: undefined, outcome: { outcomeId: 'outc_1', iteration: 0 } });
  });

  test('a turn that asked for a tool is not graded: the tool runs first', () => {
    const step = next(log(defined, ...turn({ type: 'agent.tool_use', name: 'bash', input: {}, evaluated_permission: 'allow' })));
    expect(step.kind).toBe('awaitWorker');
  });

  test('an evaluation begun and not recorded is graded again under its start', () => {
    const events = log(defined, ...turn(said), { type: 'span.outcome_evaluation_start', outcome_id: 'outc_1', iteration: 0 });
    expect(next(events)).toMatchObject({ kind: 'evaluateOutcome', startId: events.at(-1)!.event.id });
  });

  test('needs_revision hands the agent another turn, graded at the next iteration', () => {
    const revised = log(defined, ...turn(said), ...verdict(0, 'needs_revision'));
    expect(next(revised).kind).toBe('callModel');
    expect(next(log(defined, ...turn(said), ...verdict(0, 'needs_revision'), ...turn(said)))).toMatchObject({ kind: 'evaluateOutcome', outcome: { iteration: 1 } });
  });

  test('a final verdict grades nothing more; max_iterations_reached earns one closing turn, then rest', () => {
    expect(next(log(defined, ...turn(said), ...verdict(0, 'satisfied'), { type: 'session.status_idle', stop_reason: { type: 'end_turn' }, stop_details: null })).kind).toBe('none');
    expect(next(log(defined, ...turn(said), ...verdict(0, 'max_iterations_reached'))).kind).toBe('callModel');
    const closed = readLogState(log(defined, ...turn(said), ...verdict(0, 'max_iterations_reached'), ...turn(said)));
    expect(closed.outcome?.ended).toBe(true);
    expect(nextStep(closed, { reached: false }).kind).toBe('none');
  });

  test('an interrupt during grading ends the outcome interrupted; a spent budget grades nothing', () => {
    const step = next(log(defined, ...turn(said), { type: 'span.outcome_evaluation_start', outcome_id: 'outc_1', iteration: 0 }, { type: 'user.interrupt' }));
    expect(step.kind).toBe('append');
    expect(step.kind === 'append' && step.events.map((e) => e.type)).toEqual(['span.outcome_evaluation_end', 'session.status_idle']);
    expect(step.kind === 'append' && step.events[0]).toMatchObject({ result: 'interrupted', iteration: 0 });
    const broke = next(log(defined, ...turn(said)), true);
    expect(broke).toEqual({ kind: 'append', events: [{ type: 'session.status_idle', stop_reason: { type: 'budget_reached' }, stop_details: null }] });
  });
});

describe('the grader’s verdict', () => {
  const outcome = { ...readLogState(log(defined)).outcome! };
  const answer = (input: unknown) => ({ content: [{ type: 'tool_use' as const, id: 't', name: 'submit_verdict', input }] }) as never;

  test('is read from its forced tool call', () => {
    expect(readVerdict(answer({ result: 'satisfied', explanation: 'ok' }), outcome)).toEqual({ result: 'satisfied', explanation: 'ok' });
    expect(readVerdict(answer({ result: 'needs_revision', explanation: 'more' }), outcome)).toEqual({ result: 'needs_revision', explanation: 'more' });
  });

  test('needs_revision on the last allowed cycle is max_iterations_reached', () => {
    expect(readVerdict(answer({ result: 'needs_revision', explanation: 'more' }), { ...outcome, iteration: 1 })).toEqual({
      result: 'max_iterations_reached',
      explanation: 'more',
    });
  });

  test('an unreadable answer fails the outcome instead of looping', () => {
    expect(readVerdict(answer({ result: 'great' }), outcome).result).toBe('failed');
    expect(readVerdict({ content: [{ type: 'text', text: 'satisfied' }] } as never, outcome).result).toBe('failed');
  });
});
