import {
  AddSessionResourceRequest,
  Session,
  SessionCreateRequest,
  SessionDeleted,
  SessionIdRequest,
  SessionListReply,
  SessionListRequest,
  SessionResource,
  SessionResourceDeleted,
  SessionResourceIdRequest,
  SessionResourceListReply,
  SessionResourceListRequest,
  UpdateSessionRequest,
  UpdateSessionResourceRequest,
} from '../../schema/session';
import { defineSubjects } from '../subject';

/**
 * Sessions are created by the deployments service: through the API, and by its fire path in the
 * transaction that records the run (so that a fire's session and run are one write); that
 * service serves them too.
 */
const SERVICE = 'deployments';

export const sessionSubjects = defineSubjects(SERVICE, 'sessions', {
  /** Creates a session in the caller's tenant (from the call context), with its agent version's snapshot. */
  create: [SessionCreateRequest, Session],
  list: [SessionListRequest, SessionListReply],
  /** Also the runtime's: the agent snapshot, budget and environment a turn runs with. */
  get: [SessionIdRequest, Session, { callers: ['gateway', 'runtime'] }],
  /** SDK semantics per field (see SessionUpdateRequest); refused once archived. */
  update: [UpdateSessionRequest, Session],
  /** One-way; archiving again answers the session as it is. */
  archive: [SessionIdRequest, Session],
  /** For good: the session, its resources, tokens and event log. */
  delete: [SessionIdRequest, SessionDeleted],
});

/** `/v1/sessions/{id}/resources`: a session's resources, each with its own id. */
export const sessionResourceSubjects = defineSubjects(SERVICE, 'session_resources', {
  list: [SessionResourceListRequest, SessionResourceListReply],
  add: [AddSessionResourceRequest, SessionResource],
  get: [SessionResourceIdRequest, SessionResource],
  /** A new repository token (SDK ResourceUpdateParams); never echoed. */
  update: [UpdateSessionResourceRequest, SessionResource],
  delete: [SessionResourceIdRequest, SessionResourceDeleted],
});
