import type { SessionAgent } from '@shared/schema/session';
import type { SessionEvent } from '@shared/schema/session-event';
import type { LoggedEvent } from '../../../services/runtime/src/domain/session-log';

/**
 * A session's log as the runtime reads it, from event bodies: sequences from 1, an id per event
 * (the body's own `id` when it names one), so the rules under test get nothing but their inputs.
 */
let ids = 0;
export const loggedEvents = (...bodies: Array<Record<string, unknown>>): LoggedEvent[] =>
  bodies.map((body, i) => ({ sequence: i + 1, event: { id: (body.id as string) ?? `sevt_${++ids}`, processed_at: 't', ...body } as SessionEvent }));

export const userMessage = (text: string) => ({ type: 'user.message', content: [{ type: 'text', text }] });
export const idleFor = (type: string, more: Record<string, unknown> = {}) => ({ type: 'session.status_idle', stop_reason: { type, ...more }, stop_details: null });

/** The agent a session runs, with only what a rule reads set (model, system prompt, tools). */
export const sessionAgent = (overrides: Partial<SessionAgent> = {}): SessionAgent =>
  ({ model: { id: 'claude-test', speed: 'standard' }, system: null, tools: [], ...overrides }) as unknown as SessionAgent;
