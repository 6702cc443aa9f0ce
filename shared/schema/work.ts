import { Type, type Static } from '@sinclair/typebox';
import { Closed, IdOf, IdParam, ListReply, ListRequest, Nullable, StoredMetadata, Timestamp } from './common';

/**
 * An environment's work queue (SDK `resources/beta/environments/work.d.ts`): one item per session
 * whose agent-toolset tool calls wait for an environment worker. A worker polls for an item,
 * acknowledges it, heartbeats its lease while it serves the session's tools, and stops it. The
 * runtime service keeps the queue; the gateway serves it at `/v1/environments/{id}/work`.
 */
export const WORK_STATES = ['queued', 'starting', 'active', 'stopping', 'stopped'] as const;
export const WorkState = Type.Union(WORK_STATES.map((s) => Type.Literal(s)));
export type WorkState = Static<typeof WorkState>;

/** SDK BetaSelfHostedWork. `secret` is set on the poll that hands the item out, and never again. */
export const Work = Closed({
  type: Type.Literal('work'),
  id: Type.String(),
  acknowledged_at: Nullable(Timestamp),
  created_at: Timestamp,
  data: Closed({ id: Type.String(), type: Type.Literal('session') }),
  environment_id: Type.String(),
  latest_heartbeat_at: Nullable(Timestamp),
  metadata: StoredMetadata,
  secret: Nullable(Type.String()),
  started_at: Nullable(Timestamp),
  state: WorkState,
  stop_requested_at: Nullable(Timestamp),
  stopped_at: Nullable(Timestamp),
});
export type Work = Static<typeof Work>;

/** SDK BetaSelfHostedWorkHeartbeatResponse. */
export const WorkHeartbeat = Closed({
  type: Type.Literal('work_heartbeat'),
  last_heartbeat: Timestamp,
  lease_extended: Type.Boolean(),
  state: WorkState,
  ttl_seconds: Type.Integer({ minimum: 0 }),
});

/** SDK BetaSelfHostedWorkQueueStats. */
export const WorkQueueStats = Closed({
  type: Type.Literal('work_queue_stats'),
  depth: Type.Integer({ minimum: 0 }),
  oldest_queued_at: Nullable(Timestamp),
  pending: Type.Integer({ minimum: 0 }),
  workers_polling: Nullable(Type.Integer({ minimum: 0 })),
});

/** The longest a poll may block: below the bus timeout, so a long poll never reads as a failed call. */
export const POLL_BLOCK_MAX_MS = 3000;

/**
 * Which workers serve an item, by its environment's type when it was queued: `cloud` items go to
 * the product's sandbox workers (`runtime.work.claim`), `self_hosted` ones to the operator's
 * workers polling the environment (`runtime.work.poll`). Neither ever hands out the other's.
 */
export const WORK_POOLS = ['cloud', 'self_hosted'] as const;
export type WorkPool = (typeof WORK_POOLS)[number];

/**
 * `runtime.work.claim` (the sandbox workers only): the next cloud item of any tenant, already
 * acknowledged for `worker_id`, with its secret; null when none came within block_ms.
 */
export const ClaimWorkRequest = Closed({
  worker_id: Type.String({ minLength: 1, maxLength: 256 }),
  block_ms: Type.Optional(Type.Integer({ minimum: 0, maximum: POLL_BLOCK_MAX_MS })),
});

/** `GET .../work/poll` query (block_ms, reclaim_older_than_ms) and `Anthropic-Worker-ID`. */
export const PollWorkRequest = Closed({
  environment_id: IdParam,
  block_ms: Type.Optional(Type.Integer({ minimum: 0, maximum: 60_000 })),
  reclaim_older_than_ms: Type.Optional(Type.Integer({ minimum: 0, maximum: 7 * 24 * 3600_000 })),
  worker_id: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
});
export const PollWorkReply = Nullable(Work);

export const WorkIdRequest = Closed({ environment_id: IdParam, work_id: IdOf('work') });
export const HeartbeatWorkRequest = Closed({
  ...WorkIdRequest.properties,
  desired_ttl_seconds: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 3600 }))),
  /** The `last_heartbeat` the worker last saw, or `NO_HEARTBEAT` before its first: a mismatch is 412. */
  expected_last_heartbeat: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
});
export const StopWorkRequest = Closed({ ...WorkIdRequest.properties, force: Type.Optional(Type.Boolean()) });
export const UpdateWorkRequest = Closed({
  ...WorkIdRequest.properties,
  metadata: Type.Record(Type.String({ minLength: 1, maxLength: 64 }), Nullable(Type.String({ maxLength: 512 })), { maxProperties: 16 }),
});
export const WorkStatsRequest = Closed({ environment_id: IdParam });

export const WorkListFilters = Closed({ environment_id: IdParam });
export const WorkListRequest = ListRequest(WorkListFilters);
export const WorkListReply = ListReply(Work);
