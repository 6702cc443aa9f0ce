import { Session, SessionIdRequest, SessionListReply, SessionListRequest } from '../../schema/session';
import { defineSubjects } from '../subject';

/**
 * Sessions are created by the deployments service's fire path (in the transaction that records
 * the run), so that service serves them too.
 */
const SERVICE = 'deployments';

export const sessionSubjects = defineSubjects(SERVICE, 'sessions', {
  list: [SessionListRequest, SessionListReply],
  get: [SessionIdRequest, Session],
});
