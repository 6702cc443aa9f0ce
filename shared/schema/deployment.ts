import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { Closed, IdOf, IdParam, InclusiveCreatedAtBounds, ListReply, ListRequest, Metadata, MetadataPatch, Nullable, StoredMetadata, Timestamp } from './common';
import { AgentReference, PAUSING_RUN_ERRORS } from './deployment-run';
import { IdRequest, ReturnedResource, UpdateRequest } from './resource-shapes';
import { orNull } from './or-null';
import { FileId, SessionResourceConfig, SessionResourceParamsList } from './session-resource';

// The resources a deployment mounts are a topic of their own, importable from here too.
export * from './session-resource';

/**
 * The deployment resource: request and response shapes, one source of truth for the gateway
 * (body validation), the bus (both directions) and the deployments service. Shapes follow the
 * SDK's `resources/beta/deployments.d.ts`; limits are the interface's Limits table, exactly.
 * Every object is `Closed` (`additionalProperties: false`): unknown properties are refused at
 * every depth.
 */

/** int32 ceiling for integer fields the interface types as int32. */
const INT32_MAX = 2147483647;


// ---------------------------------------------------------------------------------------------
// Size limits the interface leaves open (issue 10): no stored deployment, and no page of them,
// grows to many megabytes. Request forms carry them; response forms do not, so a deployment
// stored before a limit existed is still served. Recorded in docs/decisions.md.

/** A text block, an outcome description, a document's text: the interface's own rubric bound. */
export const TEXT_MAX_CHARS = 262144;
/** Content blocks in one user.message or system.message. */
export const CONTENT_BLOCKS_MAX = 100;
/** Base64 data of an inline image or document: 1 MiB decoded (larger content is a file). */
export const BASE64_DATA_MAX_CHARS = 1398104;
/** `initial_events` as a whole, as UTF-8 JSON: one full-size rubric fits with room to spare. */
export const INITIAL_EVENTS_MAX_BYTES = 2 * 1024 * 1024;

// ---------------------------------------------------------------------------------------------
// Content blocks and initial events: built twice, bounded for requests and open for responses.

function eventSchemas(bounded: boolean) {
  const limit = <O extends Record<string, unknown>>(options: O) => (bounded ? options : {});
  const text = Type.String({ minLength: 1, ...limit({ maxLength: TEXT_MAX_CHARS }) });
  const longText = Type.String(limit({ maxLength: TEXT_MAX_CHARS }));
  const textBlock = Closed({ type: Type.Literal('text'), text });
  const base64Source = Closed({
    type: Type.Literal('base64'),
    media_type: Type.String({ minLength: 1, ...limit({ maxLength: 255 }) }),
    data: Type.String(limit({ maxLength: BASE64_DATA_MAX_CHARS })),
  });
  const urlSource = Closed({ type: Type.Literal('url'), url: Type.String({ minLength: 1, ...limit({ maxLength: 2048 }) }) });
  const fileSource = Closed({ type: Type.Literal('file'), file_id: FileId });
  const plainTextSource = Closed({ type: Type.Literal('text'), media_type: Type.Literal('text/plain'), data: longText });
  const imageBlock = Closed({
    type: Type.Literal('image'),
    source: Type.Union([base64Source, urlSource, fileSource], { description: 'must be a base64, url or file source' }),
  });
  const documentBlock = Closed({
    type: Type.Literal('document'),
    source: Type.Union([base64Source, plainTextSource, urlSource, fileSource], {
      description: 'must be a base64, text, url or file source',
    }),
    title: Type.Optional(orNull(Type.String(limit({ maxLength: 1024 })))),
    context: Type.Optional(orNull(longText)),
  });
  const redactedBlock = Closed({ type: Type.Literal('redacted') });
  const userContentBlock = Type.Union([textBlock, imageBlock, documentBlock, redactedBlock], {
    description: 'must be a text, image, document or redacted block',
  });
  const blocks = <T extends TSchema>(block: T) => Type.Array(block, limit({ maxItems: CONTENT_BLOCKS_MAX }));

  const textRubric = Closed({ type: Type.Literal('text'), content: Type.String({ maxLength: 262144 }) });
  const fileRubric = Closed({ type: Type.Literal('file'), file_id: FileId });
  const rubric = Type.Union([textRubric, fileRubric], { description: 'must be a text or file rubric' });
  return {
    textBlock,
    imageBlock,
    documentBlock,
    userContentBlock,
    rubric,
    userMessage: Closed({ type: Type.Literal('user.message'), content: blocks(userContentBlock) }),
    outcomeDescription: longText,
    systemMessage: Closed({ type: Type.Literal('system.message'), content: blocks(textBlock) }),
  };
}

const requestEvents = eventSchemas(true);
const responseEvents = eventSchemas(false);

export const TextBlock = responseEvents.textBlock;
export const UserContentBlock = responseEvents.userContentBlock;
export const Rubric = responseEvents.rubric;
export const UserMessageEvent = responseEvents.userMessage;

export const DEFAULT_MAX_ITERATIONS = 3;
export const UserDefineOutcomeEventParams = Closed({
  type: Type.Literal('user.define_outcome'),
  description: requestEvents.outcomeDescription,
  rubric: requestEvents.rubric,
  max_iterations: Type.Optional(orNull(Type.Integer({ minimum: 1, maximum: 20 }))),
});
/** Response form: `max_iterations` resolved (3 when it was omitted or null). */
export const UserDefineOutcomeEvent = Closed({
  type: Type.Literal('user.define_outcome'),
  description: Type.String(),
  rubric: Rubric,
  max_iterations: Type.Integer({ minimum: 1, maximum: 20 }),
});

export const SystemMessageEvent = responseEvents.systemMessage;

/**
 * The bounded request forms of the kinds a session's event log shares with initial events
 * (shared/schema/session-event.ts): one schema for one event kind, wherever it is sent.
 */
export const UserMessageEventParams = requestEvents.userMessage;
export const SystemMessageEventParams = requestEvents.systemMessage;
/** Content blocks of a tool result, bounded (requests) and open (responses). */
export const ToolResultContentParts = {
  request: { text: requestEvents.textBlock, image: requestEvents.imageBlock, document: requestEvents.documentBlock },
  response: { text: responseEvents.textBlock, image: responseEvents.imageBlock, document: responseEvents.documentBlock },
};

export const InitialEventParams = Type.Union([requestEvents.userMessage, UserDefineOutcomeEventParams, requestEvents.systemMessage], {
  description: 'must be a user.message, user.define_outcome or system.message event',
});
export type InitialEventParams = Static<typeof InitialEventParams>;
export const InitialEvent = Type.Union([UserMessageEvent, UserDefineOutcomeEvent, SystemMessageEvent]);
export type InitialEvent = Static<typeof InitialEvent>;

/** The request's `initial_events` (create and update). */
const InitialEventParamsList = Type.Array(InitialEventParams, { minItems: 1, maxItems: 50, maxBytes: INITIAL_EVENTS_MAX_BYTES });

// ---------------------------------------------------------------------------------------------
// Agent, schedule, budget

export const AgentParam = Type.Union(
  [
    Type.String({ minLength: 1, maxLength: 128 }),
    Closed({
      type: Type.Literal('agent'),
      id: Type.String({ minLength: 1, maxLength: 128 }),
      version: Type.Optional(Type.Integer({ minimum: 1, maximum: INT32_MAX })),
    }),
  ],
  { description: 'must be an agent id of 1 to 128 characters or {"type": "agent", "id", "version"}' },
);
export type AgentParam = Static<typeof AgentParam>;

export const ScheduleParams = Closed({
  type: Type.Literal('cron'),
  expression: Type.String({ minLength: 1, maxLength: 256 }),
  timezone: Type.String({ minLength: 1 }),
});
export type ScheduleParams = Static<typeof ScheduleParams>;

export const Schedule = Closed({
  type: Type.Literal('cron'),
  expression: Type.String(),
  timezone: Type.String(),
  last_run_at: Nullable(Timestamp),
  upcoming_runs_at: Type.Array(Timestamp, { maxItems: 5 }),
});
export type Schedule = Static<typeof Schedule>;

export const Budget = Closed({
  type: Type.Literal('limit'),
  max_list_cost: Closed({
    currency: Type.Literal('USD'),
    amount: Type.String({
      pattern: '^(0|[1-9][0-9]{0,17})$',
      description: 'must be an integer amount in minor units (cents), without leading zeros, at most 18 digits',
    }),
  }),
});
export type Budget = Static<typeof Budget>;

// ---------------------------------------------------------------------------------------------
// Create request and the deployment itself

export const DeploymentCreateRequest = Closed({
  name: Type.String({ minLength: 1, maxLength: 256 }),
  description: Type.Optional(orNull(Type.String({ maxLength: 2048 }))),
  agent: AgentParam,
  environment_id: Type.String({ minLength: 1, maxLength: 128 }),
  vault_ids: Type.Optional(Type.Array(IdParam, { maxItems: 50 })),
  initial_events: InitialEventParamsList,
  resources: Type.Optional(SessionResourceParamsList),
  metadata: Type.Optional(Metadata),
  schedule: Type.Optional(orNull(ScheduleParams, 'must be a cron schedule or null')),
  budget: Type.Optional(orNull(Budget, 'must be a limit budget or null')),
});
export type DeploymentCreateRequest = Static<typeof DeploymentCreateRequest>;

export const DeploymentStatus = Type.Union([Type.Literal('active'), Type.Literal('paused')]);
export type DeploymentStatus = Static<typeof DeploymentStatus>;

export const PausedReason = Type.Union([
  Closed({ type: Type.Literal('manual') }),
  Closed({
    type: Type.Literal('error'),
    error: Closed({ type: Type.Union(PAUSING_RUN_ERRORS.map((t) => Type.Literal(t))) }),
  }),
]);
export type PausedReason = Static<typeof PausedReason>;

/**
 * What a session runs with, as returned: a deployment's fields that each session it creates
 * copies (Session in session.ts), the agent pinned to its version.
 */
export const RunConfiguration = {
  agent: AgentReference,
  environment_id: Type.String(),
  vault_ids: Type.Array(Type.String()),
  initial_events: Type.Array(InitialEvent),
  resources: Type.Array(SessionResourceConfig),
  metadata: StoredMetadata,
};

/** As returned: every field present except `budget`, which is omitted when none is set. */
export const Deployment = ReturnedResource('deployment', {
  name: Type.String(),
  description: Nullable(Type.String()),
  ...RunConfiguration,
  schedule: Nullable(Schedule),
  status: DeploymentStatus,
  paused_reason: Nullable(PausedReason),
  budget: Type.Optional(Budget),
});
export type Deployment = Static<typeof Deployment>;

// ---------------------------------------------------------------------------------------------
// Listing

/** Filters as the deployments service receives them, already checked for consistency. */
export const DeploymentListFilters = Closed({
  agent_id: Type.Optional(IdOf('agent')),
  status: Type.Optional(DeploymentStatus),
  ...InclusiveCreatedAtBounds,
  include_archived: Type.Boolean(),
});
export type DeploymentListFilters = Static<typeof DeploymentListFilters>;

export const DeploymentListRequest = ListRequest(DeploymentListFilters);
export const DeploymentListReply = ListReply(Deployment);

// ---------------------------------------------------------------------------------------------
// Update and the lifecycle operations

/**
 * POST /v1/deployments/{id} body, with the SDK's `DeploymentUpdateParams` semantics per field:
 * omitted preserves; `name`, `agent`, `environment_id` and `initial_events` cannot be cleared;
 * `description` clears with null or ""; `vault_ids` and `resources` clear with null or [];
 * `schedule` and `budget` clear with null; lists are replaced whole. `metadata` is a patch (a
 * string upserts, null deletes, the 16-pair limit applies to the result); `metadata: null` is an
 * empty patch. A replaced `resources` list carries its repository tokens again: stored tokens are
 * bound to the list they came with.
 */
export const DeploymentUpdateRequest = Closed({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
  description: Type.Optional(orNull(Type.String({ maxLength: 2048 }))),
  agent: Type.Optional(AgentParam),
  environment_id: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  vault_ids: Type.Optional(orNull(Type.Array(IdParam, { maxItems: 50 }), 'must be an array of at most 50 vault ids, or null')),
  initial_events: Type.Optional(InitialEventParamsList),
  resources: Type.Optional(orNull(SessionResourceParamsList, 'must be an array of at most 500 resources, or null')),
  metadata: Type.Optional(orNull(MetadataPatch, 'must be an object of string or null values, or null')),
  schedule: Type.Optional(orNull(ScheduleParams, 'must be a cron schedule or null')),
  budget: Type.Optional(orNull(Budget, 'must be a limit budget or null')),
});
export type DeploymentUpdateRequest = Static<typeof DeploymentUpdateRequest>;

/** Bus form of the operations on one deployment (the tenant travels in the call context). */
export const DeploymentIdRequest = IdRequest('deployment_id', 'deployment');
export const UpdateDeploymentRequest = UpdateRequest('deployment_id', 'deployment', DeploymentUpdateRequest);
