import * as sandbox from '../../schema/sandbox-policy';
import * as vaultCredential from '../../schema/vault-credential';
import * as validation from '../../schema/vault-credential-validation';
import * as work from '../../schema/work';
import { defineSubjects } from '../subject';

/**
 * The runtime service drives sessions (a durable consumer of the sessions stream, no subject)
 * and keeps the environments' work queues, which the gateway serves at
 * `/v1/environments/{id}/work` to environment workers (the SDK's `EnvironmentWorker`), and
 * hands cloud environments' items to the sandbox workers (`claim`).
 */
export const workSubjects = defineSubjects('runtime', 'work', {
  /** Hands out the oldest queued item (or one whose lease lapsed longer ago than reclaim_older_than_ms), with its secret; null when none came within block_ms. */
  poll: [work.PollWorkRequest, work.PollWorkReply],
  ack: [work.WorkIdRequest, work.Work],
  heartbeat: [work.HeartbeatWorkRequest, work.WorkHeartbeat],
  stop: [work.StopWorkRequest, work.Work],
  get: [work.WorkIdRequest, work.Work],
  update: [work.UpdateWorkRequest, work.Work],
  list: [work.WorkListRequest, work.WorkListReply],
  stats: [work.WorkStatsRequest, work.WorkQueueStats],
  /**
   * Internal, the sandbox workers only: the next item of any tenant's cloud environment (the
   * tenant chosen fairly), acknowledged for the caller and handed out with its secret. A system
   * call: it carries no tenant.
   */
  claim: [work.ClaimWorkRequest, sandbox.ClaimWorkReply, { callers: ['sandbox-worker'] }],
  /** Internal, the sandbox workers only: a claimed item whose session could not start, failed with a session.error. A system call. */
  fail: [sandbox.FailWorkRequest, work.Work, { callers: ['sandbox-worker'] }],
  /** Internal, the sandbox workers only: a claimed item's repository that could not be cloned, logged as the SDK's session.error. A system call. */
  report: [sandbox.ReportRepositoryErrorRequest, work.Work, { callers: ['sandbox-worker'] }],
});

/**
 * `POST /v1/vaults/{id}/credentials/{cid}/mcp_oauth_validate`: the runtime, which holds the MCP
 * client, probes the credential's MCP server with its access token (and refreshes it on a 401).
 */
export const mcpCredentialSubjects = defineSubjects('runtime', 'mcp_credentials', {
  validate: [vaultCredential.CredentialIdRequest, validation.CredentialValidation],
});
