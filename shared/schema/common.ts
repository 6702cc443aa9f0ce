import { Type, type Static, type TProperties, type TSchema } from '@sinclair/typebox';
import { ID_PREFIXES, idPattern, type IdKind } from '../ids/ids';

/**
 * An object that refuses unknown properties (`additionalProperties: false`): every object of the
 * interface is closed, at every depth. `description`, when given, is what a validation failure
 * of the object as a whole says.
 */
export const Closed = <P extends TProperties>(properties: P, description?: string) =>
  Type.Object(properties, { additionalProperties: false, ...(description ? { description } : {}) });

/** RFC 3339 UTC with milliseconds, e.g. 2026-11-22T09:00:00.000Z. */
export const Timestamp = Type.String({ format: 'date-time' });

/**
 * Keys 1..64 characters. A Record's key schema only takes effect as a pattern (TypeBox compiles
 * it to patternProperties), so the limit is written as one; the validator reports a key that
 * breaks it at the record's own path.
 */
export const METADATA_KEY = Type.String({ pattern: '^[\\s\\S]{1,64}$' });
/** At most this many pairs: in `Metadata`, and in the result of applying a `MetadataPatch`. */
export const METADATA_MAX_PAIRS = 16;
/**
 * The one metadata rule, for every resource that carries metadata (deployments, agents,
 * environments, memory stores, vaults, credentials), on create; an update's patch is
 * `MetadataPatch`, applied by shared/metadata/apply-metadata-patch.ts.
 */
export const Metadata = Type.Record(METADATA_KEY, Type.String({ maxLength: 512 }), {
  maxProperties: METADATA_MAX_PAIRS,
  additionalProperties: false,
});
export type Metadata = Static<typeof Metadata>;

/** Metadata as a resource returns it: the stored pairs, checked by `Metadata` when they were written. */
export const StoredMetadata = Type.Record(Type.String(), Type.String());

/** Metadata on update: a string upserts, null deletes; the 16-pair limit applies to the result. */
export const MetadataPatch = Type.Record(
  METADATA_KEY,
  Type.Union([Type.String({ maxLength: 512 }), Type.Null()]),
  { additionalProperties: false },
);
export type MetadataPatch = Static<typeof MetadataPatch>;

/**
 * Machine-readable detail of an error (`error.details`): `error_code` names the cause, which SDK
 * 1.x maps to its specific error classes (`BetaEnvironmentArchivedError`, ...); some codes carry
 * more fields (the heartbeat's `current_state`). Sent only where the SDK declares a code.
 */
export const ErrorDetails = Type.Object(
  { error_code: Type.String({ minLength: 1, maxLength: 128 }) },
  { additionalProperties: Type.Unknown() },
);
export type ErrorDetails = Static<typeof ErrorDetails> & { [field: string]: unknown };

export const ErrorEnvelope = Closed({
  type: Type.Literal('error'),
  error: Closed({ type: Type.String(), message: Type.String(), details: Type.Optional(ErrorDetails) }),
  request_id: Type.Union([Type.String(), Type.Null()]),
});
export type ErrorEnvelope = Static<typeof ErrorEnvelope>;

/** Where a keyset page stopped: the last row's sort key. Never shown to clients unsealed. */
export const PagePosition = Closed({ created_at: Type.String(), id: Type.String() });
export type PagePosition = Static<typeof PagePosition>;

/**
 * A list's creation-time bounds as the services receive them: exact UTC millisecond instants,
 * already checked by the gateway. Lists that take only inclusive bounds use `created_at_gte`
 * and `created_at_lte` of these.
 */
export const CreatedAtBounds = {
  created_at_gt: Type.Optional(Type.String()),
  created_at_gte: Type.Optional(Type.String()),
  created_at_lt: Type.Optional(Type.String()),
  created_at_lte: Type.Optional(Type.String()),
};
export const InclusiveCreatedAtBounds = {
  created_at_gte: CreatedAtBounds.created_at_gte,
  created_at_lte: CreatedAtBounds.created_at_lte,
};

/** Bus form of a list call: typed filters, page size, and where the previous page stopped. */
export const ListRequest = <F extends TSchema>(filters: F) =>
  Closed({ filters, limit: Type.Integer({ minimum: 1, maximum: 1000 }), after: Type.Union([PagePosition, Type.Null()]) });

export const ListReply = <T extends TSchema>(item: T) =>
  Closed({ data: Type.Array(item), next: Type.Union([PagePosition, Type.Null()]) });

/** HTTP form of a list page. */
export const Page = <T extends TSchema>(item: T) =>
  Type.Object({ data: Type.Array(item), next_page: Type.Union([Type.String(), Type.Null()]) });
/** HTTP form of a page of a list that pages both ways: `prev_page` is null on the first page. */
export const BidirectionalPage = <T extends TSchema>(item: T) =>
  Type.Object({
    data: Type.Array(item),
    next_page: Type.Union([Type.String(), Type.Null()]),
    prev_page: Type.Union([Type.String(), Type.Null()]),
  });

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** Query-string booleans arrive as text; only these two spellings are accepted. */
export const QueryBoolean = Type.Union([Type.Literal('true'), Type.Literal('false')]);

/**
 * An id reference in a request body: the interface's 1..128 characters. Its exact form is checked
 * before any lookup (`IdOf`, `isIdOf`): a well-sized value in any other form names nothing (404).
 */
export const IdParam = Type.String({ minLength: 1, maxLength: 128 });

/**
 * An id of one kind in its exact form (prefix, 24 base62 characters). Bus requests that look
 * one up carry it, so no padded, re-cased or foreign id reaches a database comparison, whoever
 * the caller is.
 */
export const IdOf = (kind: IdKind) =>
  Type.String({ pattern: idPattern(kind), description: `must be an id of the form ${ID_PREFIXES[kind]} followed by 24 letters or digits` });
