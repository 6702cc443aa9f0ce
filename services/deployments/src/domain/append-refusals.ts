import { invalidRequest, type ApiError } from '@shared/errors/api-error';
import type { SessionRow } from '../db/schema';

/**
 * Who appends to a session's log: a client's send (`sessions.events.send`) or the runtime's
 * append (`sessions.events.append`), each refused by a different state of the session.
 */
export type Appender = 'client' | 'runtime';

/**
 * Why `appender` may not add to the session's log as its row stands, if it may not: a client's
 * send is refused by an archived or terminated session, the runtime's append by a terminated one.
 */
export function appendRefusal(session: Pick<SessionRow, 'id' | 'archivedAt' | 'status'>, appender: Appender): ApiError | undefined {
  if (appender === 'client' && session.archivedAt) return invalidRequest(`session '${session.id}' is archived and cannot receive events`);
  if (session.status !== 'terminated') return undefined;
  return invalidRequest(appender === 'client' ? `session '${session.id}' is terminated and cannot receive events` : `session '${session.id}' is terminated`);
}
