import { invalidRequest } from '@shared/errors/api-error';
import { DEFAULT_MAX_ITERATIONS, type InitialEvent, type InitialEventParams } from '@shared/schema/deployment';
import type { SessionEventParams } from '@shared/schema/session-event';

/** Events a `system.message` may accompany (the interface's rule 3; only user.message exists here). */
const ACCOMPANIED_KINDS = new Set(['user.message', 'user.tool_result', 'user.custom_tool_result']);

/**
 * Placement rules of `system.message`: at most one, the final event, right after the event it
 * accompanies. Returns its index, or undefined when there is none. `field` names the list in
 * errors (a session's sent `events` obey the same rules).
 */
export function checkSystemMessagePlacement(events: ReadonlyArray<{ type: string }>, field = 'initial_events'): number | undefined {
  const positions = events.flatMap((e, i) => (e.type === 'system.message' ? [i] : []));
  if (positions.length === 0) return undefined;
  if (positions.length > 1) {
    throw invalidRequest(`${field}.${positions[1]}: at most one system.message event is allowed`);
  }
  const at = positions[0];
  if (at !== events.length - 1) throw invalidRequest(`${field}.${at}: system.message must be the final event`);
  if (at === 0 || !ACCOMPANIED_KINDS.has(events[at - 1].type)) {
    throw invalidRequest(`${field}.${at}: system.message must immediately follow a user.message event`);
  }
  return at;
}

/** The stored and returned form: `max_iterations` resolved to its default when omitted or null. */
export function resolveInitialEvents(events: InitialEventParams[]): InitialEvent[] {
  return events.map((event) =>
    event.type === 'user.define_outcome'
      ? {
          type: event.type,
          description: event.description,
          rubric: event.rubric,
          max_iterations: event.max_iterations ?? DEFAULT_MAX_ITERATIONS,
        }
      : event,
  );
}

/**
 * Every file the events refer to, in request order, each with the field path of its use (for
 * error messages): image and document blocks whose source is a file (in messages and tool
 * results), and file rubrics. `field` names the list (a session's sent `events` are checked alike).
 */
export function eventFileReferences(events: ReadonlyArray<SessionEventParams>, field = 'initial_events'): Array<{ id: string; path: string }> {
  return events.flatMap((event, i) => {
    if (event.type === 'user.define_outcome') {
      return event.rubric.type === 'file' ? [{ id: event.rubric.file_id, path: `${field}.${i}.rubric.file_id` }] : [];
    }
    const content =
      event.type === 'user.message' || event.type === 'user.tool_result' || event.type === 'user.custom_tool_result'
        ? (event.content ?? [])
        : [];
    return content.flatMap((block, j) =>
      (block.type === 'image' || block.type === 'document') && block.source.type === 'file'
        ? [{ id: block.source.file_id, path: `${field}.${i}.content.${j}.source.file_id` }]
        : [],
    );
  });
}
