import * as sandbox from '../../schema/sandbox-policy';
import * as session from '../../schema/session';
import { resourceOperations } from '../resource-operations';
import { defineSubjects } from '../subject';

/**
 * Sessions are created by the deployments service: through the API, and by its fire path in the
 * transaction that records the run (so that a fire's session and run are one write); that
 * service serves them too.
 */
const SERVICE = 'deployments';

/**
 * `create` makes a session in the caller's tenant (from the call context), with its agent
 * version's snapshot; `update` has SDK semantics per field (see SessionUpdateRequest) and is
 * refused once archived; `archive` is one-way (archiving again answers the session as it is);
 * `delete` is for good: the session, its resources, tokens and event log.
 */
export const sessionSubjects = defineSubjects(SERVICE, 'sessions', {
  ...resourceOperations({ resource: session.Session, id: session.SessionIdRequest, create: session.SessionCreateRequest, list: [session.SessionListRequest, session.SessionListReply], update: session.UpdateSessionRequest, deleted: session.SessionDeleted }),
  /** Also the runtime's: the agent snapshot, budget and environment a turn runs with. */
  get: [session.SessionIdRequest, session.Session, { callers: ['gateway', 'runtime'] }],
});

/** `/v1/sessions/{id}/resources`: a session's resources, each with its own id. */
export const sessionResourceSubjects = defineSubjects(SERVICE, 'session_resources', {
  list: [session.SessionResourceListRequest, session.SessionResourceListReply],
  add: [session.AddSessionResourceRequest, session.SessionResource],
  get: [session.SessionResourceIdRequest, session.SessionResource],
  /** A new repository token (SDK ResourceUpdateParams); never echoed. */
  update: [session.UpdateSessionResourceRequest, session.SessionResource],
  delete: [session.SessionResourceIdRequest, session.SessionResourceDeleted],
  /**
   * What the session mounts, its repository tokens opened: the runtime's, for a cloud item's
   * claim; the sandbox worker's, for a token as it is now (a rotation reaches the next fetch).
   */
  resolve: [sandbox.ResolveSessionMountsRequest, sandbox.SessionMounts, { callers: ['runtime', 'sandbox-worker'] }],
});
