import { Type, type Static, type TNull, type TSchema, type TUnion } from '@sinclair/typebox';
import { Closed, IdOf, IdParam, InclusiveCreatedAtBounds, ListReply, ListRequest, Metadata, MetadataPatch, Nullable, StoredMetadata, Timestamp } from './common';
import { AgentReference, PAUSING_RUN_ERRORS } from './deployment-run';
import { IdRequest, LifecycleTimestamps, UpdateRequest } from './resource-shapes';

/**
 * The deployment resource: request and response shapes, one source of truth for the gateway
 * (body validation), the bus (both directions) and the deployments service. Shapes follow the
 * SDK's `resources/beta/deployments.d.ts`; limits are the interface's Limits table, exactly.
 * Every object is `Closed` (`additionalProperties: false`): unknown properties are refused at
 * every depth.
 */

/**
 * `T | null`, written so a validation failure still says what is wrong: a nullable union of
 * objects keeps its variants side by side (the validator then picks the variant by `type`), and
 * a nullable scalar carries a description of its limits instead of "does not match any form".
 */
function orNull<T extends TSchema>(schema: T, description?: string): TUnion<[T, TNull]> {
  const variants = (schema as { anyOf?: TSchema[] }).anyOf;
  const text = description ?? describeScalar(schema);
  // Same values as Union([T, Null]); only the nesting differs, so the static type is that.
  return Type.Union([...(variants ?? [schema]), Type.Null()], text ? { description: text } : {}) as unknown as TUnion<[T, TNull]>;
}

function describeScalar(schema: TSchema): string | undefined {
  const s = schema as { type?: string; minLength?: number; maxLength?: number; minimum?: number; maximum?: number; description?: string };
  if (s.description) return `${s.description}, or null`;
  if (s.type === 'string') {
    const range =
      s.minLength !== undefined && s.maxLength !== undefined
        ? ` of ${s.minLength} to ${s.maxLength} characters`
        : s.maxLength !== undefined
          ? ` of at most ${s.maxLength} characters`
          : s.minLength !== undefined
            ? ` of at least ${s.minLength} character${s.minLength === 1 ? '' : 's'}`
            : '';
    return `must be a string${range}, or null`;
  }
  if (s.type === 'integer') return `must be an integer from ${s.minimum} to ${s.maximum}, or null`;
  return undefined;
}

/** int32 ceiling for integer fields the interface types as int32. */
const INT32_MAX = 2147483647;

export const FileId = Type.String({ minLength: 1, maxLength: 128 });

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
/** `resources` as a whole, as UTF-8 JSON (tokens included): hundreds of ordinary repositories. */
export const RESOURCES_MAX_BYTES = 1024 * 1024;

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
// Session resources

export const Checkout = Type.Union(
  [
    Closed({ type: Type.Literal('branch'), name: Type.String({ minLength: 1, maxLength: 255 }) }),
    Closed({ type: Type.Literal('commit'), sha: Type.String({ minLength: 7, maxLength: 64 }) }),
  ],
  { description: 'must be a branch or commit checkout' },
);

/**
 * Absolute, no `..` segment, no control character (NUL, newline, ... would cut or forge the
 * path where a runtime writes or logs it): a mount path cannot climb out of where it is put. The
 * deployments service stores it normalised (`/x/./y//` -> `/x/y`) and compares mounts in that
 * form, and accepts it only strictly under one of `MOUNT_ROOTS` (the product's two mount areas,
 * where its defaults `/workspace/<repo-name>` and `/mnt/session/uploads/<file_id>` live): `/`,
 * `/proc/self`, `/etc` or `/usr/bin` would put a tenant's files over the sandbox's own system.
 */
export const MOUNT_ROOTS = ['/workspace', '/mnt/session'] as const;
export const MOUNT_PATH_RULE =
  'must be an absolute path under /workspace/ or /mnt/session/, without .. segments or control characters';
const MountPath = Type.String({
  minLength: 1,
  maxLength: 4096,
  pattern: '^/(?!(?:[\\s\\S]*/)?\\.\\.(?:/|$))[^\\u0000-\\u001f\\u007f]*$',
  description: MOUNT_PATH_RULE,
});

/**
 * http(s) only, a non-empty host, no userinfo (`user:pass@` would store a credential in clear and
 * echo it), no whitespace or control characters, and no `\\` (URL parsers read it as `/`, so
 * `https://evil\\@github.com` would hide its real host). Whether plain `http://` is allowed is
 * the deployments service's setting (`ALLOW_HTTP_REPOSITORY_URLS`, off by default).
 */
const RepositoryUrl = Type.String({
  minLength: 1,
  maxLength: 2048,
  pattern: '^[Hh][Tt][Tt][Pp][Ss]?://[^/?#@\\\\\\s\\u0000-\\u001f]+(?:[/?#][^\\s\\u0000-\\u001f]*)?$',
  description: 'must be an https:// URL with a host and without credentials, spaces or backslashes',
});

/** `github_repository` is the SDK's name for the same kind; accepted and echoed as sent. */
export const REPOSITORY_RESOURCE_TYPES = ['hosted_repository', 'github_repository'] as const;
const repositoryParams = <K extends (typeof REPOSITORY_RESOURCE_TYPES)[number]>(kind: K) =>
  Closed({
    type: Type.Literal(kind),
    url: RepositoryUrl,
    /** Write-only: stored encrypted, never returned, never logged. */
    authorization_token: Type.String({ minLength: 1, maxLength: 4096 }),
    mount_path: Type.Optional(orNull(MountPath)),
    checkout: Type.Optional(orNull(Checkout, 'must be a branch or commit checkout, or null')),
  });
const repositoryConfig = <K extends (typeof REPOSITORY_RESOURCE_TYPES)[number]>(kind: K) =>
  Closed({ type: Type.Literal(kind), url: Type.String(), mount_path: Type.String(), checkout: Nullable(Checkout) });

export const FileResourceParams = Closed({
  type: Type.Literal('file'),
  file_id: FileId,
  mount_path: Type.Optional(orNull(MountPath)),
});
export const FileResourceConfig = Closed({ type: Type.Literal('file'), file_id: Type.String(), mount_path: Type.String() });

export const MemoryStoreAccess = Type.Union([Type.Literal('read_write'), Type.Literal('read_only')]);
export const MemoryStoreResourceParams = Closed({
  type: Type.Literal('memory_store'),
  memory_store_id: Type.String({
    minLength: 1,
    maxLength: 128,
    pattern: '^memstore_',
    description: 'must be a memory store id (prefix memstore_)',
  }),
  access: Type.Optional(orNull(MemoryStoreAccess, 'must be one of "read_write", "read_only" or null')),
  instructions: Type.Optional(orNull(Type.String({ maxLength: 4096 }))),
});
export const MemoryStoreResourceConfig = Closed({
  type: Type.Literal('memory_store'),
  memory_store_id: Type.String(),
  access: MemoryStoreAccess,
  instructions: Nullable(Type.String()),
});

export const SessionResourceParams = Type.Union(
  [repositoryParams('hosted_repository'), repositoryParams('github_repository'), FileResourceParams, MemoryStoreResourceParams],
  { description: 'must be a hosted_repository, github_repository, file or memory_store resource' },
);
export type SessionResourceParams = Static<typeof SessionResourceParams>;
/** The request's `resources` (create and update). */
const SessionResourceParamsList = Type.Array(SessionResourceParams, { maxItems: 500, maxBytes: RESOURCES_MAX_BYTES });
export const SessionResourceConfig = Type.Union([
  repositoryConfig('hosted_repository'),
  repositoryConfig('github_repository'),
  FileResourceConfig,
  MemoryStoreResourceConfig,
]);
export type SessionResourceConfig = Static<typeof SessionResourceConfig>;

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
export const Deployment = Closed({
  type: Type.Literal('deployment'),
  id: Type.String(),
  name: Type.String(),
  description: Nullable(Type.String()),
  ...RunConfiguration,
  schedule: Nullable(Schedule),
  status: DeploymentStatus,
  paused_reason: Nullable(PausedReason),
  budget: Type.Optional(Budget),
  ...LifecycleTimestamps,
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
