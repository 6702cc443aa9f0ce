import type { OutcomeEvaluation } from '@shared/schema/session';
import type { NewSessionEventBody } from '@shared/schema/session-event';
import { outcomeIdOf } from './session-events';

/**
 * A session's `outcome_evaluations` (SDK BetaManagedAgentsOutcomeEvaluationResource): one per
 * `user.define_outcome` of its log, kept beside the session so a retrieve reads no log. The log
 * is the truth; these follow it as events are appended, in the appender's transaction:
 * `pending` when defined, `running` once the agent works on it, `evaluating` while the grader
 * scores (span.outcome_evaluation_start), then the verdict (span.outcome_evaluation_end):
 * `needs_revision` sends it back to `running` on the next iteration; any other verdict is final.
 */

/**
 * The evaluations `user.define_outcome` events open: one each, `pending`, with the outcome id the
 * log gives the event (outcomeIdOf: its sequence; `firstSequence` is the first event's). A new
 * session's initial events are the first of its log (sequences 1..n).
 */
export function outcomeEvaluationsOf(sessionId: string, events: ReadonlyArray<{ type: string }>, firstSequence: number): OutcomeEvaluation[] {
  return events.flatMap((event, i) =>
    isDefineOutcome(event)
      ? [
          {
            type: 'outcome_evaluation' as const,
            outcome_id: outcomeIdOf(sessionId, firstSequence + i),
            description: event.description,
            result: 'pending',
            iteration: 0,
            explanation: null,
            completed_at: null,
          },
        ]
      : [],
  );
}

const isDefineOutcome = (event: { type: string }): event is { type: 'user.define_outcome'; description: string } =>
  event.type === 'user.define_outcome';

/** Whether appending these events changes any outcome evaluation (so the session's row is read only then). */
export const touchesOutcomes = (events: ReadonlyArray<{ type: string }>): boolean =>
  events.some((e) => e.type === 'user.define_outcome' || e.type === 'session.status_running' || e.type.startsWith('span.outcome_evaluation_'));

const FINAL = new Set(['satisfied', 'max_iterations_reached', 'failed', 'interrupted']);

/**
 * The evaluations after `events` were appended at `at` (`firstSequence`: the first one's place).
 * The agent starts on the latest outcome still pending when the session starts running.
 */
export function advanceOutcomeEvaluations(
  current: readonly OutcomeEvaluation[],
  sessionId: string,
  events: readonly NewSessionEventBody[],
  firstSequence: number,
  at: Date,
): OutcomeEvaluation[] {
  let evaluations = [...current];
  const update = (outcomeId: string, change: Partial<OutcomeEvaluation>) => {
    evaluations = evaluations.map((e) => (e.outcome_id === outcomeId ? { ...e, ...change } : e));
  };
  events.forEach((event, i) => {
    switch (event.type) {
      case 'user.define_outcome':
        evaluations.push(...outcomeEvaluationsOf(sessionId, [event], firstSequence + i));
        break;
      case 'session.status_running': {
        const latest = evaluations.at(-1);
        if (latest?.result === 'pending') update(latest.outcome_id, { result: 'running' });
        break;
      }
      case 'span.outcome_evaluation_start':
        update(event.outcome_id, { result: 'evaluating', iteration: event.iteration });
        break;
      case 'span.outcome_evaluation_end':
        update(
          event.outcome_id,
          FINAL.has(event.result)
            ? { result: event.result, iteration: event.iteration, explanation: event.explanation, completed_at: at.toISOString() }
            : { result: 'running', iteration: event.iteration + 1, explanation: event.explanation },
        );
        break;
      default:
        break;
    }
  });
  return evaluations;
}
