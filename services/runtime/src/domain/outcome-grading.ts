import type { Message, MessageCreateParamsNonStreaming } from '@anthropic-ai/sdk/resources/messages';
import type { SessionAgent } from '@shared/schema/session';
import type { OutcomeVerdict, RuntimeEventBody } from '@shared/schema/session-event';
import type { TokenUsage } from '@shared/usage/list-cost';
import type { LoggedEvent, OutcomeState } from './session-log';

/**
 * The grader of a user.define_outcome: a model request, separate from the agent's conversation,
 * that reads the task, the rubric and what the agent did, and answers through one forced tool
 * call, so its verdict is data and never has to be parsed out of prose.
 */
export const VERDICT_TOOL = 'submit_verdict';

const GRADER_SYSTEM = [
  'You grade the work of an autonomous agent against a rubric.',
  'Read the task, the rubric and the transcript of what the agent did, then call submit_verdict exactly once.',
  "Answer 'satisfied' only when every criterion of the rubric is met by what the transcript shows;",
  "'needs_revision' when the agent can still meet the criteria, with an explanation naming each unmet criterion and what is missing;",
  "'failed' when the rubric does not apply to what the agent was asked to produce.",
].join(' ');

/** Longest piece of one event the transcript keeps, and the transcript's own bound (its end is kept). */
const EVENT_TEXT_MAX = 20_000;
const TRANSCRIPT_MAX = 400_000;

const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max)} […]`);

const textOf = (blocks: ReadonlyArray<{ type: string; text?: string }> | undefined) =>
  (blocks ?? []).flatMap((block) => (block.type === 'text' && block.text !== undefined ? [block.text] : [])).join('\n');

/**
 * What the agent was told and did, as plain text (for the grader, and for a summary of a
 * conversation too long for its model): messages, tool calls and their results, in order, at
 * most `max` characters (its end is kept).
 */
export function transcriptOf(log: readonly LoggedEvent[], max = TRANSCRIPT_MAX): string {
  const lines: string[] = [];
  for (const { event } of log) {
    switch (event.type) {
      case 'user.message':
        lines.push(`[user] ${clip(textOf(event.content as ReadonlyArray<{ type: string; text?: string }>), EVENT_TEXT_MAX)}`);
        break;
      case 'agent.message':
        lines.push(`[agent] ${clip(textOf(event.content), EVENT_TEXT_MAX)}`);
        break;
      case 'agent.tool_use':
      case 'agent.custom_tool_use':
        lines.push(`[agent called ${event.name}] ${clip(JSON.stringify(event.input), EVENT_TEXT_MAX)}`);
        break;
      case 'user.tool_result':
      case 'user.custom_tool_result':
        lines.push(`[tool result${event.is_error ? ', error' : ''}] ${clip(textOf(event.content as ReadonlyArray<{ type: string; text?: string }>), EVENT_TEXT_MAX)}`);
        break;
      case 'span.outcome_evaluation_end':
        lines.push(`[earlier evaluation ${event.iteration}: ${event.result}] ${clip(event.explanation, EVENT_TEXT_MAX)}`);
        break;
      default:
        break;
    }
  }
  const transcript = lines.join('\n\n');
  return transcript.length <= max ? transcript : `[…] ${transcript.slice(-max)}`;
}

/** The grading request of one evaluation cycle, on the agent's own model. */
export function buildGradingRequest(
  agent: SessionAgent,
  log: readonly LoggedEvent[],
  outcome: OutcomeState,
  rubric: string,
  maxTokens: number,
): MessageCreateParamsNonStreaming {
  const prompt = [
    `<task>\n${outcome.description}\n</task>`,
    `<rubric>\n${rubric}\n</rubric>`,
    `<transcript>\n${transcriptOf(log)}\n</transcript>`,
    `This is evaluation ${outcome.iteration + 1} of at most ${outcome.maxIterations}.`,
  ].join('\n\n');
  return {
    model: agent.model.id,
    max_tokens: maxTokens,
    system: GRADER_SYSTEM,
    messages: [{ role: 'user', content: prompt }],
    tools: [
      {
        name: VERDICT_TOOL,
        description: 'Record the verdict on the agent’s work.',
        input_schema: {
          type: 'object',
          properties: {
            result: { type: 'string', enum: ['satisfied', 'needs_revision', 'failed'] },
            explanation: { type: 'string', description: 'Why; for needs_revision, each unmet criterion and what is missing.' },
          },
          required: ['result', 'explanation'],
        },
      },
    ],
    tool_choice: { type: 'tool', name: VERDICT_TOOL },
  };
}

export interface Verdict {
  result: OutcomeVerdict;
  explanation: string;
}

/**
 * The grader's verdict from its response. A response without a well-formed verdict grades the
 * outcome `failed` (said in the explanation) rather than looping on a grader that cannot answer.
 * A `needs_revision` on the last allowed cycle becomes `max_iterations_reached`.
 */
export function readVerdict(message: Pick<Message, 'content'>, outcome: OutcomeState): Verdict {
  const call = message.content.find((block) => block.type === 'tool_use' && block.name === VERDICT_TOOL);
  const input = (call?.type === 'tool_use' ? call.input : undefined) as { result?: unknown; explanation?: unknown } | undefined;
  const result = input?.result;
  const explanation = typeof input?.explanation === 'string' ? input.explanation : '';
  if (result !== 'satisfied' && result !== 'needs_revision' && result !== 'failed') {
    return { result: 'failed', explanation: 'The grader gave no verdict the runtime could read.' };
  }
  if (result === 'needs_revision' && outcome.iteration + 1 >= outcome.maxIterations) return { result: 'max_iterations_reached', explanation };
  return { result, explanation };
}

/**
 * The end of an evaluation cycle: its span with the verdict and the grader's usage, then idle at
 * a final verdict. After `needs_revision` (or `max_iterations_reached`, which earns one closing
 * turn) the session stays running: the agent answers the verdict next (domain/model-request.ts).
 */
export function evaluationEndEvents(outcome: OutcomeState, startId: string, verdict: Verdict, tokens: TokenUsage): RuntimeEventBody[] {
  const end: RuntimeEventBody = {
    type: 'span.outcome_evaluation_end',
    outcome_id: outcome.outcomeId,
    iteration: outcome.iteration,
    outcome_evaluation_start_id: startId,
    result: verdict.result,
    explanation: verdict.explanation,
    usage: {
      input_tokens: tokens.input_tokens,
      output_tokens: tokens.output_tokens,
      cache_read_input_tokens: tokens.cache_read_input_tokens,
      cache_creation_input_tokens: tokens.cache_creation_5m_input_tokens,
    },
  };
  const anotherTurn = verdict.result === 'needs_revision' || verdict.result === 'max_iterations_reached';
  return anotherTurn ? [end] : [end, { type: 'session.status_idle', stop_reason: { type: 'end_turn' }, stop_details: null }];
}
