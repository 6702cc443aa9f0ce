import type { TObject, TSchema } from '@sinclair/typebox';

export type Method = 'GET' | 'POST' | 'DELETE';

/** A body on the wire: its media type and the schema of what it carries. */
export interface Media {
  mediaType: string;
  schema: TSchema;
  /** For a stream (`text/event-stream`): what each of its items carries. */
  itemSchema?: TSchema;
}

/**
 * The error statuses a route can answer (PRODUCT.md's status map). Every API route answers some
 * of them whatever it does (openapi/document.ts says which); a route declares only its own.
 */
export type ErrorStatus = 400 | 401 | 403 | 404 | 408 | 409 | 412 | 413 | 429 | 431 | 500 | 503 | 504;

/**
 * What one route is to a client: declared with the route itself (routing/route.ts), so a route
 * cannot be served without being described, and the OpenAPI document (openapi/document.ts) is
 * read off the same table the gateway registers. Framework-free on purpose.
 */
export interface RouteContract {
  method: Method;
  /** With `:name` parameters, as the router matches it. */
  path: string;
  /** `api`: behind the guard (key, permission, versioning); `open`: answered to anyone (health, this documentation). */
  access: 'api' | 'open';
  /** The query parameters besides `beta`; an array property is the repeated `name[]=` parameter. */
  query?: TObject;
  /** Request headers of this route's own (beyond credentials and versioning), by lower-case name. */
  headers?: TObject;
  body?: Media;
  /** What a success (200) carries. */
  reply: Media;
  /** Answers besides 200 that are not the error envelope (a readiness probe's 503). */
  otherReplies?: Partial<Record<number, Media>>;
  /** Error statuses of this route's own, beyond those every route of its access can answer. */
  errors: readonly ErrorStatus[];
}

/** The common case: a JSON document described by its TypeBox schema. */
export const json = (schema: TSchema): Media => ({ mediaType: 'application/json', schema });
