import { Type, type Static } from '@sinclair/typebox';
import { Closed, CreatedAtBounds, IdOf, IdParam, ListReply, ListRequest, Nullable, Timestamp } from './common';
import { IdRequest } from './resource-shapes';

export const AgentReference = Closed({ type: Type.Literal('agent'), id: IdParam, version: Type.Integer() });
export type AgentReference = Static<typeof AgentReference>;

/** Run error kinds: the interface's paused-reason kinds plus the two that never pause. */
export const PAUSING_RUN_ERRORS = [
  'environment_archived_error',
  'agent_archived_error',
  'environment_not_found_error',
  'vault_not_found_error',
  'file_not_found_error',
  'session_resource_not_found_error',
  'workspace_archived_error',
  'organization_disabled_error',
  'memory_store_archived_error',
  'skill_not_found_error',
  'vault_archived_error',
  'unknown_error',
  'self_hosted_resources_unsupported_error',
  'mcp_egress_blocked_error',
] as const;
export const NON_PAUSING_RUN_ERRORS = ['session_rate_limited_error', 'session_creation_rejected_error'] as const;
export type RunErrorType = (typeof PAUSING_RUN_ERRORS)[number] | (typeof NON_PAUSING_RUN_ERRORS)[number];

export const RunErrorTypeSchema = Type.Union(
  [...PAUSING_RUN_ERRORS, ...NON_PAUSING_RUN_ERRORS].map((t) => Type.Literal(t)),
);
export const RunError = Closed({ type: RunErrorTypeSchema, message: Type.String() });
export type RunError = Static<typeof RunError>;

export const TriggerContext = Type.Union([
  Closed({ type: Type.Literal('manual') }),
  Closed({ type: Type.Literal('schedule'), scheduled_at: Timestamp }),
]);
export type TriggerContext = Static<typeof TriggerContext>;

export const DeploymentRun = Closed({
  type: Type.Literal('deployment_run'),
  id: Type.String(),
  deployment_id: Type.String(),
  agent: AgentReference,
  trigger_context: TriggerContext,
  session_id: Nullable(Type.String()),
  error: Nullable(RunError),
  created_at: Timestamp,
});
export type DeploymentRun = Static<typeof DeploymentRun>;

/** The fire operation (manual run, or a scheduler claim). Idempotent per scheduled occurrence. */
export const FireDeploymentRequest = Closed({ deployment_id: IdOf('deployment'), trigger: TriggerContext });
export const FireDeploymentReply = Type.Union([
  /** A run was recorded (or had been already, for this occurrence): success or failed run. */
  Closed({ outcome: Type.Literal('fired'), run: DeploymentRun }),
  /** Nothing recorded: a scheduled fire of a deployment that is paused, archived or gone. */
  Closed({ outcome: Type.Literal('skipped'), reason: Type.Union([Type.Literal('paused'), Type.Literal('archived'), Type.Literal('not_found'), Type.Literal('unscheduled')]) }),
]);
export type FireDeploymentReply = Static<typeof FireDeploymentReply>;

export const TriggerType = Type.Union([Type.Literal('manual'), Type.Literal('schedule')]);
export type TriggerType = Static<typeof TriggerType>;

/** Filters as the deployments service receives them; bounds are UTC millisecond timestamps. */
export const DeploymentRunListFilters = Closed({
  deployment_id: Type.Optional(IdOf('deployment')),
  trigger_type: Type.Optional(TriggerType),
  /** true: failed runs (error set); false: runs that created a session. */
  has_error: Type.Optional(Type.Boolean()),
  ...CreatedAtBounds,
});
export type DeploymentRunListFilters = Static<typeof DeploymentRunListFilters>;
export const DeploymentRunListRequest = ListRequest(DeploymentRunListFilters);
export const DeploymentRunListReply = ListReply(DeploymentRun);
export const DeploymentRunIdRequest = IdRequest('deployment_run_id', 'deploymentRun');
