import { invalidRequest } from '@shared/errors/api-error';
import { derivedId } from '@shared/ids/ids';
import type { SessionStatus } from '@shared/schema/session';
import {
  NOTICE_EVENTS_MAX_CHARS,
  STATUS_EVENT_TYPES,
  type NewSessionEventBody,
  type SessionEvent,
  type SessionEventParams,
} from '@shared/schema/session-event';
import type { SessionEventRow } from '../db/schema';
import { checkSystemMessagePlacement, resolveInitialEvents } from './initial-events';

/**
 * The outcome a `user.define_outcome` defines, derived from its place in the log: the same on
 * every replica and at every read, so the session's `outcome_evaluations` name it without
 * reading the log (initial events are sequences 1..n).
 */
export const outcomeIdOf = (sessionId: string, sequence: number): string => derivedId('outcome', `${sessionId}/events/${sequence}`);

/** An event as list, send and stream return it: its id, its own fields, when the log accepted it. */
export function presentSessionEvent(row: Pick<SessionEventRow, 'id' | 'body' | 'processedAt'>): SessionEvent {
  return { id: row.id, ...row.body, processed_at: row.processedAt.toISOString() } as SessionEvent;
}

/**
 * An append's events as its `sessions.log_appended` notice carries them (`events`, the follow
 * read's form as JSON), or nothing when they are too large for it: the runtime reads those.
 */
export function noticeEvents(rows: ReadonlyArray<Pick<SessionEventRow, 'id' | 'body' | 'processedAt' | 'sequence'>>): { events?: string } {
  const events = JSON.stringify(rows.map((row) => ({ sequence: row.sequence, event: presentSessionEvent(row) })));
  return events.length <= NOTICE_EVENTS_MAX_CHARS ? { events } : {};
}

/** The status the last status event of `events` moves a session to; undefined when there is none. */
export function statusAfter(events: ReadonlyArray<{ type: string }>): SessionStatus | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const status = STATUS_EVENT_TYPES[events[i].type as keyof typeof STATUS_EVENT_TYPES];
    if (status) return status;
  }
  return undefined;
}

/**
 * What a tool result or confirmation refers to: the field naming it and the kinds of event it
 * may name (the SDK: a confirmation answers an agent.tool_use or agent.mcp_tool_use; a custom
 * tool result an agent.custom_tool_use; a tool result an agent.tool_use).
 */
export interface ToolReference {
  id: string;
  path: string;
  kinds: readonly string[];
}

export function toolReferences(events: ReadonlyArray<SessionEventParams>): ToolReference[] {
  return events.flatMap((event, i): ToolReference[] => {
    switch (event.type) {
      case 'user.tool_confirmation':
        return [{ id: event.tool_use_id, path: `events.${i}.tool_use_id`, kinds: ['agent.tool_use', 'agent.mcp_tool_use'] }];
      case 'user.custom_tool_result':
        return [{ id: event.custom_tool_use_id, path: `events.${i}.custom_tool_use_id`, kinds: ['agent.custom_tool_use'] }];
      case 'user.tool_result':
        return [{ id: event.tool_use_id, path: `events.${i}.tool_use_id`, kinds: ['agent.tool_use'] }];
      default:
        return [];
    }
  });
}

/**
 * The rules of a send the schema cannot say: system.message placement (as for initial events),
 * a deny_message only with a denial. Returns where the system.message is (the model rule's input).
 */
export function checkSentEvents(events: ReadonlyArray<SessionEventParams>): number | undefined {
  events.forEach((event, i) => {
    if (event.type === 'user.tool_confirmation' && event.result !== 'deny' && event.deny_message != null) {
      throw invalidRequest(`events.${i}.deny_message: only allowed when result is 'deny'`);
    }
  });
  return checkSystemMessagePlacement(events, 'events');
}

/**
 * Each referenced event must be one of this session's, of a kind the reference may name.
 * `found` are the session's events with the referenced ids.
 */
export function checkToolReferences(references: ToolReference[], found: ReadonlyArray<Pick<SessionEventRow, 'id' | 'type'>>): void {
  const types = new Map(found.map((e) => [e.id, e.type]));
  for (const ref of references) {
    const type = types.get(ref.id);
    if (type === undefined) throw invalidRequest(`${ref.path}: no event ${ref.id} in this session`);
    if (!ref.kinds.includes(type)) throw invalidRequest(`${ref.path}: event ${ref.id} is a ${type} event, not ${ref.kinds.join(' or ')}`);
  }
}

/** The sent events as the log stores them: a define_outcome's max_iterations resolved, as for initial events. */
export function sentEventBodies(events: ReadonlyArray<SessionEventParams>): NewSessionEventBody[] {
  return events.map((event) => (event.type === 'user.define_outcome' ? resolveInitialEvents([event])[0] : event)) as NewSessionEventBody[];
}
