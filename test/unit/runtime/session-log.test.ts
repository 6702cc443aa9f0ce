import { describe, expect, test } from 'bun:test';
import { answeredCall, isInput, readLogState } from '../../../services/runtime/src/domain/session-log';
import { idleFor as idle, loggedEvents as log } from './session-log-fixture';

/** Where a session's agent loop stands, read from its log alone. */

const ev = (body: Record<string, unknown>) => log(body)[0]!.event;

const usage = { input_tokens: 1, output_tokens: 1, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };
const message = { type: 'user.message', content: [{ type: 'text', text: 'hi' }] };
const start = (id = 'sevt_start') => ({ type: 'span.model_request_start', id });
const end = (is_error = false) => ({ type: 'span.model_request_end', is_error, model_request_start_id: 'sevt_start', model_usage: usage });
const call = (id: string, evaluated_permission = 'allow') => ({ type: 'agent.tool_use', id, name: 'bash', input: {}, evaluated_permission });
const custom = (id: string) => ({ type: 'agent.custom_tool_use', id, name: 'lookup', input: {} });
const result = (tool_use_id: string) => ({ type: 'user.tool_result', tool_use_id, content: [] });
const said = { type: 'agent.message', content: [{ type: 'text', text: 'done' }] };
const defined = (outcome_id = 'outc_1', max_iterations = 3) => ({
  type: 'user.define_outcome',
  outcome_id,
  description: 'd',
  rubric: { type: 'text', content: 'r' },
  max_iterations,
});
const evalStart = (iteration: number, id = 'sevt_eval', outcome_id = 'outc_1') => ({ type: 'span.outcome_evaluation_start', id, outcome_id, iteration });
const evalEnd = (iteration: number, result: string, outcome_id = 'outc_1') => ({
  type: 'span.outcome_evaluation_end',
  outcome_id,
  iteration,
  outcome_evaluation_start_id: 'sevt_eval',
  result,
  explanation: 'e',
  usage,
});

describe('isInput and answeredCall', () => {
  test("the client's kinds the agent answers are input; an interrupt, a status or the agent's own are not", () => {
    for (const type of ['user.message', 'user.tool_result', 'user.custom_tool_result', 'user.tool_confirmation', 'user.define_outcome']) {
      expect(isInput(ev({ type }))).toBe(true);
    }
    for (const type of ['user.interrupt', 'session.status_running', 'agent.message', 'system.message']) expect(isInput(ev({ type }))).toBe(false);
  });

  test('the call a result or a confirmation names; none for anything else', () => {
    expect(answeredCall(ev(result('a')))).toBe('a');
    expect(answeredCall(ev({ type: 'user.tool_confirmation', tool_use_id: 'b', result: 'allow' }))).toBe('b');
    expect(answeredCall(ev({ type: 'user.custom_tool_result', custom_tool_use_id: 'c' }))).toBe('c');
    expect(answeredCall(ev(message))).toBeUndefined();
  });
});

describe('readLogState', () => {
  test('an empty log: nothing happened, the next append is fenced on 0', () => {
    expect(readLogState([])).toEqual({
      last: 0,
      lastStatus: undefined,
      openRequestStartId: undefined,
      inputSinceLastResponse: false,
      interrupted: false,
      openToolUses: [],
      outcome: undefined,
      compactionsInARow: 0,
      workerEverWanted: false,
    });
  });

  test("the last sequence is the log's last event's, not its length", () => {
    const events = log(message);
    events[0]!.sequence = 42;
    expect(readLogState(events).last).toBe(42);
  });

  test('input is new until a response is recorded; a request begun and not ended is open', () => {
    expect(readLogState(log(message)).inputSinceLastResponse).toBe(true);
    const open = readLogState(log(message, start('sevt_open')));
    expect(open.openRequestStartId).toBe('sevt_open');
    expect(open.inputSinceLastResponse).toBe(true);
    const answered = readLogState(log(message, start(), end()));
    expect(answered.openRequestStartId).toBeUndefined();
    expect(answered.inputSinceLastResponse).toBe(false);
  });

  test('the last status is the latest session.status_* event; an idle answers all input before it', () => {
    const state = readLogState(log(message, { type: 'session.status_running' }, idle('retries_exhausted')));
    expect(state.lastStatus).toMatchObject(idle('retries_exhausted'));
    expect(state.inputSinceLastResponse).toBe(false);
    expect(readLogState(log({ type: 'session.status_running' }, said)).lastStatus?.type).toBe('session.status_running');
  });

  test('an interrupt is remembered until the next response or input', () => {
    expect(readLogState(log(message, { type: 'user.interrupt' })).interrupted).toBe(true);
    expect(readLogState(log(message, { type: 'user.interrupt' }, start(), end())).interrupted).toBe(false);
    expect(readLogState(log(message, { type: 'user.interrupt' }, message)).interrupted).toBe(false);
  });

  describe('open tool calls', () => {
    test("a toolset call is the worker's, a custom call the client's; an ask waits for its confirmation", () => {
      const state = readLogState(log(start(), call('a'), call('b', 'ask'), custom('c'), end()));
      expect(state.openToolUses).toEqual([
        { id: 'a', kind: 'agent.tool_use', awaitingConfirmation: false },
        { id: 'b', kind: 'agent.tool_use', awaitingConfirmation: true },
        { id: 'c', kind: 'agent.custom_tool_use', awaitingConfirmation: false },
      ]);
    });

    test('results close their calls (and are new input); an approval lets a worker run the call; a denial answers it', () => {
      const answered = readLogState(log(start(), call('a'), custom('c'), end(), result('a'), { type: 'user.custom_tool_result', custom_tool_use_id: 'c' }));
      expect(answered.openToolUses).toEqual([]);
      expect(answered.inputSinceLastResponse).toBe(true);
      const approved = readLogState(log(start(), call('b', 'ask'), end(), { type: 'user.tool_confirmation', tool_use_id: 'b', result: 'allow' }));
      expect(approved.openToolUses).toEqual([{ id: 'b', kind: 'agent.tool_use', awaitingConfirmation: false }]);
      const denied = readLogState(log(start(), call('b', 'ask'), end(), { type: 'user.tool_confirmation', tool_use_id: 'b', result: 'deny' }));
      expect(denied.openToolUses).toEqual([]);
    });

    test("an approval that came before the call's event still counts", () => {
      const state = readLogState(log({ type: 'user.tool_confirmation', tool_use_id: 'b', result: 'allow' }, start(), call('b', 'ask'), end()));
      expect(state.openToolUses[0]?.awaitingConfirmation).toBe(false);
    });

    test("a call open when an interrupt came is abandoned: its late result is no new input", () => {
      const state = readLogState(log(message, start(), call('a'), end(), { type: 'user.interrupt' }, idle('end_turn'), result('a')));
      expect(state.inputSinceLastResponse).toBe(false);
      expect(state.openToolUses).toEqual([]);
      // A result for a call made after the interrupt is input as usual.
      const later = readLogState(log({ type: 'user.interrupt' }, start(), call('b'), end(), result('b')));
      expect(later.inputSinceLastResponse).toBe(true);
    });
    test('a toolset call, answered or not, means the session may have had a worker; custom and MCP calls never queue one', () => {
      expect(readLogState(log(message, start(), said, end())).workerEverWanted).toBe(false);
      expect(readLogState(log(start(), custom('c'), end(), { type: 'user.custom_tool_result', custom_tool_use_id: 'c' })).workerEverWanted).toBe(false);
      const mcp = { type: 'agent.mcp_tool_use', id: 'm', name: 'search', mcp_server_name: 'docs', input: {}, evaluated_permission: 'allow' };
      expect(readLogState(log(start(), mcp, end())).workerEverWanted).toBe(false);
      expect(readLogState(log(start(), call('a'), end(), result('a'), start(), said, end())).workerEverWanted).toBe(true);
    });
  });

  describe('the outcome', () => {
    test('none until one is defined; the latest definition wins and starts over', () => {
      expect(readLogState(log(message)).outcome).toBeUndefined();
      const state = readLogState(log(defined('outc_1'), evalStart(0), evalEnd(0, 'needs_revision'), defined('outc_2', 5)));
      expect(state.outcome).toEqual({
        outcomeId: 'outc_2',
        description: 'd',
        rubric: { type: 'text', content: 'r' },
        maxIterations: 5,
        iteration: 0,
        openEvaluationStartId: undefined,
        ended: false,
        awaitingEvaluation: false,
      });
    });

    test('a response with no tool call makes the outcome due for grading; one with a call, an error response, or an interrupt does not', () => {
      expect(readLogState(log(defined(), start(), said, end())).outcome?.awaitingEvaluation).toBe(true);
      expect(readLogState(log(defined(), start(), call('a'), end())).outcome?.awaitingEvaluation).toBe(false);
      expect(readLogState(log(defined(), start(), end(true))).outcome?.awaitingEvaluation).toBe(false);
      expect(readLogState(log(defined(), start(), said, end(), { type: 'user.interrupt' })).outcome?.awaitingEvaluation).toBe(false);
    });

    test('a turn that went idle on its own (a refusal, a spent budget) is not graded; one idle at end_turn still is', () => {
      expect(readLogState(log(defined(), start(), said, end(), idle('refusal'))).outcome?.awaitingEvaluation).toBe(false);
      expect(readLogState(log(defined(), start(), said, end(), idle('end_turn'))).outcome?.awaitingEvaluation).toBe(true);
    });

    test('an evaluation begun is open until its end; the end counts the iteration and feeds the agent one more turn', () => {
      const open = readLogState(log(defined(), start(), said, end(), evalStart(0, 'sevt_e0')));
      expect(open.outcome).toMatchObject({ openEvaluationStartId: 'sevt_e0', awaitingEvaluation: false, iteration: 0 });
      const revised = readLogState(log(defined(), start(), said, end(), evalStart(0), evalEnd(0, 'needs_revision')));
      expect(revised.outcome).toMatchObject({ openEvaluationStartId: undefined, iteration: 1, ended: false });
      expect(revised.inputSinceLastResponse).toBe(true);
    });

    test('a final verdict ends the outcome; only max_iterations_reached earns a closing turn', () => {
      for (const [verdict, turn] of [
        ['satisfied', false],
        ['failed', false],
        ['max_iterations_reached', true],
      ] as const) {
        const state = readLogState(log(defined(), start(), said, end(), evalStart(0), evalEnd(0, verdict)));
        expect(state.outcome).toMatchObject({ ended: true, iteration: 1 });
        expect(state.inputSinceLastResponse).toBe(turn);
      }
      // An ended outcome is never due for grading again.
      expect(readLogState(log(defined(), evalStart(0), evalEnd(0, 'satisfied'), start(), said, end())).outcome?.awaitingEvaluation).toBe(false);
    });

    test("another outcome's evaluation spans leave this one alone", () => {
      const state = readLogState(log(defined('outc_2'), start(), said, end(), evalStart(0, 'x', 'outc_1'), evalEnd(0, 'satisfied', 'outc_1')));
      expect(state.outcome).toMatchObject({ outcomeId: 'outc_2', openEvaluationStartId: undefined, iteration: 0, ended: false, awaitingEvaluation: true });
    });
  });
});
