import { describe, expect, test } from 'bun:test';
import type { Message } from '@anthropic-ai/sdk/resources/messages';
import { buildGradingRequest, evaluationEndEvents, readVerdict, transcriptOf, VERDICT_TOOL, type Verdict } from '../../../services/runtime/src/domain/outcome-grading';
import type { OutcomeState } from '../../../services/runtime/src/domain/session-log';
import { loggedEvents as log, sessionAgent } from './session-log-fixture';

/** The grader of an outcome: its request, its transcript, reading its verdict and recording it, from inputs alone. */

const text = (t: string) => ({ type: 'text', text: t });
const outcome = (over: Partial<OutcomeState> = {}): OutcomeState => ({
  outcomeId: 'outc_1',
  description: 'write a poem',
  rubric: { type: 'text', content: 'rhymes' },
  maxIterations: 3,
  iteration: 0,
  openEvaluationStartId: undefined,
  ended: false,
  awaitingEvaluation: true,
  ...over,
});
const verdictCall = (input: unknown, name = VERDICT_TOOL) => ({ content: [{ type: 'tool_use', id: 'tu', name, input }] }) as unknown as Pick<Message, 'content'>;
const tokens = { input_tokens: 5, output_tokens: 6, cache_read_input_tokens: 7, cache_creation_5m_input_tokens: 8, cache_creation_1h_input_tokens: 0 };

describe('transcriptOf', () => {
  test('messages, calls, results (errors said) and earlier verdicts, in order; everything else left out', () => {
    const transcript = transcriptOf(
      log(
        { type: 'user.message', content: [text('please'), { type: 'image' }, text('now')] },
        { type: 'session.status_running' },
        { type: 'agent.thinking' },
        { type: 'agent.message', content: [text('ok')] },
        { type: 'agent.tool_use', name: 'bash', input: { command: 'ls' }, evaluated_permission: 'allow' },
        { type: 'agent.custom_tool_use', name: 'lookup', input: {} },
        { type: 'user.tool_result', tool_use_id: 'x', content: [text('a.txt')] },
        { type: 'user.custom_tool_result', custom_tool_use_id: 'y', is_error: true },
        { type: 'span.outcome_evaluation_end', outcome_id: 'o', iteration: 0, outcome_evaluation_start_id: 'z', result: 'needs_revision', explanation: 'short' },
      ),
    );
    expect(transcript).toBe(
      [
        '[user] please\nnow',
        '[agent] ok',
        '[agent called bash] {"command":"ls"}',
        '[agent called lookup] {}',
        '[tool result] a.txt',
        '[tool result, error] ',
        '[earlier evaluation 0: needs_revision] short',
      ].join('\n\n'),
    );
  });

  test('an empty log is an empty transcript', () => {
    expect(transcriptOf([])).toBe('');
  });

  test('one long event is clipped at 20,000 characters; a long transcript keeps its end', () => {
    const long = 'x'.repeat(20_001);
    expect(transcriptOf(log({ type: 'agent.message', content: [text(long)] }))).toBe(`[agent] ${'x'.repeat(20_000)} […]`);
    expect(transcriptOf(log({ type: 'agent.message', content: [text('x'.repeat(20_000))] }))).toBe(`[agent] ${'x'.repeat(20_000)}`);

    const many = log(...Array.from({ length: 25 }, (_, i) => ({ type: 'agent.message', content: [text(`${i}`.padEnd(19_000, '.'))] })));
    const transcript = transcriptOf(many);
    expect(transcript.startsWith('[…] ')).toBe(true);
    expect(transcript.length).toBe(400_000 + '[…] '.length);
    expect(transcript.endsWith(`[agent] 24${'.'.repeat(18_998)}`)).toBe(true);
  });
});

describe('buildGradingRequest', () => {
  test("the agent's model, the grader's own system prompt, and one forced call of the verdict tool", () => {
    const agent = sessionAgent({ system: 'the agent prompt' });
    const request = buildGradingRequest(agent, log({ type: 'agent.message', content: [text('poem')] }), outcome({ iteration: 1 }), 'must rhyme', 99);
    expect(request.model).toBe('claude-test');
    expect(request.max_tokens).toBe(99);
    expect(request.system).not.toContain('the agent prompt');
    expect(request.tool_choice).toEqual({ type: 'tool', name: VERDICT_TOOL });
    expect(request.tools?.map((t) => ('name' in t ? t.name : undefined))).toEqual([VERDICT_TOOL]);
    expect(request.messages).toEqual([
      {
        role: 'user',
        content: '<task>\nwrite a poem\n</task>\n\n<rubric>\nmust rhyme\n</rubric>\n\n<transcript>\n[agent] poem\n</transcript>\n\nThis is evaluation 2 of at most 3.',
      },
    ]);
  });
});

describe('readVerdict', () => {
  test('a well-formed verdict is taken as it is', () => {
    expect(readVerdict(verdictCall({ result: 'satisfied', explanation: 'good' }), outcome())).toEqual({ result: 'satisfied', explanation: 'good' });
    expect(readVerdict(verdictCall({ result: 'failed', explanation: 'n/a' }), outcome())).toEqual({ result: 'failed', explanation: 'n/a' });
    expect(readVerdict(verdictCall({ result: 'needs_revision', explanation: 'more' }), outcome({ iteration: 1 }))).toEqual({ result: 'needs_revision', explanation: 'more' });
  });

  test('needs_revision on the last allowed cycle is max_iterations_reached', () => {
    expect(readVerdict(verdictCall({ result: 'needs_revision', explanation: 'more' }), outcome({ iteration: 2, maxIterations: 3 }))).toEqual({
      result: 'max_iterations_reached',
      explanation: 'more',
    });
    // The last cycle's other verdicts stand.
    expect(readVerdict(verdictCall({ result: 'satisfied', explanation: '' }), outcome({ iteration: 2 })).result).toBe('satisfied');
  });

  test('no verdict the runtime can read grades the outcome failed, never loops', () => {
    const unreadable: Verdict = { result: 'failed', explanation: 'The grader gave no verdict the runtime could read.' };
    expect(readVerdict({ content: [] } as unknown as Message, outcome())).toEqual(unreadable);
    expect(readVerdict({ content: [{ type: 'text', text: 'satisfied' }] } as unknown as Message, outcome())).toEqual(unreadable);
    expect(readVerdict(verdictCall({ result: 'satisfied' }, 'other_tool'), outcome())).toEqual(unreadable);
    expect(readVerdict(verdictCall({ result: 'great', explanation: 'x' }), outcome())).toEqual(unreadable);
    expect(readVerdict(verdictCall({ result: 'max_iterations_reached', explanation: 'x' }), outcome())).toEqual(unreadable);
    expect(readVerdict(verdictCall(null), outcome())).toEqual(unreadable);
  });

  test('an explanation that is not a string is empty', () => {
    expect(readVerdict(verdictCall({ result: 'satisfied', explanation: 42 }), outcome())).toEqual({ result: 'satisfied', explanation: '' });
  });
});

describe('evaluationEndEvents', () => {
  const span = (result: string) => ({
    type: 'span.outcome_evaluation_end',
    outcome_id: 'outc_1',
    iteration: 1,
    outcome_evaluation_start_id: 'sevt_start',
    result,
    explanation: 'why',
    usage: { input_tokens: 5, output_tokens: 6, cache_read_input_tokens: 7, cache_creation_input_tokens: 8 },
  });

  test('a final verdict ends the span and rests the session', () => {
    for (const result of ['satisfied', 'failed'] as const) {
      expect(evaluationEndEvents(outcome({ iteration: 1 }), 'sevt_start', { result, explanation: 'why' }, tokens) as unknown[]).toEqual([
        span(result),
        { type: 'session.status_idle', stop_reason: { type: 'end_turn' }, stop_details: null },
      ]);
    }
  });

  test('needs_revision and max_iterations_reached leave the session running for one more turn', () => {
    for (const result of ['needs_revision', 'max_iterations_reached'] as const) {
      expect(evaluationEndEvents(outcome({ iteration: 1 }), 'sevt_start', { result, explanation: 'why' }, tokens) as unknown[]).toEqual([span(result)]);
    }
  });
});
