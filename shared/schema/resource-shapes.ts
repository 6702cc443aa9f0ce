import { Type, type TBoolean, type TLiteral, type TProperties, type TSchema, type TString } from '@sinclair/typebox';
import type { IdKind } from '../ids/ids';
import { Closed, IdOf, Nullable, Timestamp } from './common';

/**
 * The shapes every tenant-owned resource repeats (agents, environments, memory stores, files,
 * vaults, credentials, deployments, sessions), written once. Each builder keeps the property
 * order of the shapes it replaced: a validator reports the first failing property, so the order
 * is part of the error a client sees.
 */

/** `{ <key>: <id of kind> }`, closed: the bus request that names one resource. */
export const IdRequest = <K extends string>(key: K, kind: IdKind) =>
  Closed({ [key]: IdOf(kind) } as { [P in K]: TString });

/** `{ <key>: <id of kind>, update: <body> }`, closed: the bus form of an update (the id first). */
export const UpdateRequest = <K extends string, B extends TSchema>(key: K, kind: IdKind, update: B) =>
  Closed({ [key]: IdOf(kind), update } as { [P in K]: TString } & { update: B });

/** `{ type: '<resource>_deleted', id }`: what a delete answers. */
export const Deleted = <T extends string>(type: T) =>
  Closed({ type: Type.Literal(type), id: Type.String() });

/** The lifecycle tail of a resource as returned; `archived_at` is null until it is archived. */
export const LifecycleTimestamps = {
  created_at: Timestamp,
  updated_at: Timestamp,
  archived_at: Nullable(Timestamp),
};

/** An object the API returns: `{ type: '<type>', id, ...its own properties }`, closed (memories, their versions, skills, skill versions). */
export const TypedObject = <T extends string, P extends TProperties>(type: T, properties: P) =>
  Closed({ type: Type.Literal(type), id: Type.String(), ...properties } as { type: TLiteral<T>; id: TString } & P);

/**
 * A resource as returned: `{ type: '<type>', id, ...its own properties, ...LifecycleTimestamps }`,
 * closed (agents, environments, memory stores, vaults, credentials, deployments, sessions).
 */
export const ReturnedResource = <T extends string, P extends TProperties>(type: T, properties: P) =>
  TypedObject(type, { ...properties, ...LifecycleTimestamps } as P & typeof LifecycleTimestamps);

/**
 * The list filters of a resource that can be archived: its own filters first, then
 * `include_archived` (archived rows are listed only when asked), closed.
 */
export const ArchivableListFilters = <P extends TProperties = {}>(filters: P = {} as P) =>
  Closed({ ...filters, include_archived: Type.Boolean() } as P & { include_archived: TBoolean });
