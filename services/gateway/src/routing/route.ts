import type { Static, TObject, TSchema } from '@sinclair/typebox';
import type { ResolvePath } from 'elysia';
import type { CallContext } from '@shared/bus/call-context';
import type { PendingIdempotentRequest } from '../idempotency/idempotent-requests';
import { NO_QUERY, parseQuery } from '../http/query';
import { emptyBody, jsonBody, type RawBody } from '../http/raw-body';
import { json, type ErrorStatus, type Media, type Method, type RouteContract } from './route-contract';

/**
 * A body that is not a plain JSON document (a multipart upload, a JSON body whose errors need
 * more than the schema can say): the route reads the raw body itself, still only after the guard.
 * `media` is what the document shows it to be; `read` is what enforces that.
 */
export interface BodyReader<T> {
  media: Media;
  read: (raw: RawBody | undefined) => T | Promise<T>;
}

/** What one route accepts and answers, declared once next to it. */
export interface RouteSchemas {
  /**
   * The JSON body's schema, or a reader for any other body. Omitted: the route takes no body
   * (an empty body or `{}` is tolerated, anything else is 400).
   */
  body?: TSchema | BodyReader<unknown>;
  /**
   * The query string's schema. Omitted: the route takes nothing but `beta` (the guard refuses
   * the rest, before the body is read; see domain/query-parameters.ts).
   */
  query?: TObject;
  /**
   * What a success answers: a JSON reply's schema (the reply schema of the bus subject the
   * handler calls, when that is what it returns), or the media of any other (a file's bytes).
   * The handler's return type is checked against it.
   */
  reply: TSchema | Media;
  /** Error statuses of this route's own (a 409 for a concurrent update), beyond every route's. */
  errors?: readonly ErrorStatus[];
  /** Answers beside the envelope every error status may be (a memory's own 409 error objects). */
  otherReplies?: RouteContract['otherReplies'];
  /**
   * Request headers the handler reads beyond credentials and versioning (the work poll's worker
   * id), by lower-case name: documented; the handler reads them from `headers`.
   */
  headers?: TObject;
}

type BodyOf<B> = B extends TSchema ? Static<B> : B extends BodyReader<infer T> ? T : undefined;
type QueryOf<Q> = Q extends TObject ? Static<Q> : undefined;
/** A JSON reply is its schema's type; any other medium is a Response the handler builds. */
type ReplyValue<R> = R extends Media ? Response : R extends TSchema ? Static<R> : never;

/** What a route's handler is given: the caller and its input, already validated and typed. */
export interface RouteInput<S extends RouteSchemas, P> {
  call: CallContext;
  params: P;
  body: BodyOf<S['body']>;
  query: QueryOf<S['query']>;
  /** The request's headers, for the few routes whose input includes one (the work poll's worker id). */
  headers: Headers | undefined;
}

/** What the guard leaves in Elysia's context for every API route (routing/guard.ts). */
export interface GuardedContext<P> {
  call: CallContext;
  url: URL;
  params: P;
  body: RawBody | undefined;
  /** The request itself, for the few routes that read more than their input (an event stream: `Last-Event-ID`, the connection's end). */
  request?: Request;
  /** A POST sent with an `Idempotency-Key`: begun once the input is valid (idempotency/idempotent-requests.ts). */
  idempotency?: PendingIdempotentRequest;
}

/**
 * One entry of a resource's route table (routing/resource-module.ts registers them with Elysia):
 * its contract, which the OpenAPI document shows, and its handler.
 */
export interface Route extends RouteContract {
  access: 'api';
  /** Every route's own params type is accepted here: the router matched the path, so its parameters are there. */
  handle(context: GuardedContext<Record<string, string>>): Promise<unknown>;
}

type RouteHandler<Path extends string, S extends RouteSchemas> = (
  input: RouteInput<S, ResolvePath<Path>>,
) => ReplyValue<S['reply']> | Promise<ReplyValue<S['reply']>>;

/**
 * A route that reads its own query string (a list: routing/pagination.ts `servePage`,
 * `serveBidirectionalPage`; an event stream): the query it reads and what it answers, for the
 * document, and what serves it.
 */
export interface SelfParsingRoute<P> {
  query: TObject;
  /** Headers it reads besides credentials and versioning (an event stream's `Last-Event-ID`). */
  headers?: TObject;
  reply: TSchema | Media;
  serve: (context: GuardedContext<P>) => Promise<unknown>;
}

const isMedia = (value: TSchema | Media): value is Media => 'mediaType' in value && 'schema' in value;
const mediaOf = (reply: TSchema | Media): Media => (isMedia(reply) ? reply : json(reply));

function bodyMedia(body: RouteSchemas['body']): Media | undefined {
  if (body === undefined) return undefined;
  return 'read' in body && 'media' in body ? (body as BodyReader<unknown>).media : json(body as TSchema);
}

/**
 * Declares a route's input once and hands its handler typed `params`, `body` and `query`.
 * Elysia's own schema validation is not used: it runs before `resolve`, that is before the guard
 * has checked key, permission and versioning and read the body (the documented order: route,
 * key, permission, version, then body), and its messages do not name the field. So the guard
 * reads the body, and the route parses what it declared with our validator: query, then body.
 */
function define<Path extends string, S extends RouteSchemas>(method: Method, path: Path, schemas: S, handler: RouteHandler<Path, S>): Route {
  // Destructured where Elysia can see it: it reads handlers' parameters to decide what to parse.
  const handle = async ({ call, url, params, body: raw, request, idempotency }: GuardedContext<ResolvePath<Path>>) => {
    const parsed = parseQuery(url, schemas.query ?? NO_QUERY);
    const query = schemas.query === undefined ? undefined : parsed;
    const body = await readBody(schemas.body, raw);
    // The operation begins here: a request refused above never held its idempotency key, and
    // one whose key already has an answer gets that answer instead of running again.
    const replay = await idempotency?.begin();
    if (replay) return replay;
    // The two conversions above are what BodyOf/QueryOf describe; TypeScript cannot follow a
    // conditional type through a runtime branch.
    return handler({ call, params, body, query, headers: request?.headers } as RouteInput<S, ResolvePath<Path>>);
  };
  return {
    method,
    path,
    access: 'api',
    query: schemas.query,
    headers: schemas.headers,
    body: bodyMedia(schemas.body),
    reply: mediaOf(schemas.reply),
    errors: schemas.errors ?? [],
    otherReplies: schemas.otherReplies,
    handle,
  };
}


function readBody(spec: RouteSchemas['body'], raw: RawBody | undefined): unknown {
  if (spec === undefined) return emptyBody(raw);
  if ('read' in spec && 'media' in spec) return (spec as BodyReader<unknown>).read(raw);
  return jsonBody(spec as TSchema, raw);
}

export const route = {
  get: <const Path extends string, const S extends RouteSchemas>(path: Path, schemas: S, handler: RouteHandler<Path, S>) =>
    define('GET', path, schemas, handler),
  post: <const Path extends string, const S extends RouteSchemas>(path: Path, schemas: S, handler: RouteHandler<Path, S>) =>
    define('POST', path, schemas, handler),
  delete: <const Path extends string, const S extends RouteSchemas>(path: Path, schemas: S, handler: RouteHandler<Path, S>) =>
    define('DELETE', path, schemas, handler),
  /** A GET that parses its own query (see SelfParsingRoute). */
  list: <const Path extends string>(path: Path, route: SelfParsingRoute<ResolvePath<Path>>): Route => ({
    method: 'GET',
    path,
    access: 'api',
    query: route.query,
    headers: route.headers,
    reply: mediaOf(route.reply),
    errors: [],
    handle: route.serve,
  }),
};

/**
 * A route anyone may call, outside the guard (health, readiness, the API's own documentation):
 * registered on the gateway's table (service.ts) before the guarded modules, described like
 * every other.
 */
export interface OpenRoute extends RouteContract {
  access: 'open';
  handle(): unknown;
}

export const openRoute = (
  path: string,
  schemas: { reply: TSchema | Media; otherReplies?: RouteContract['otherReplies'] },
  handle: () => unknown,
): OpenRoute => ({ method: 'GET', path, access: 'open', reply: mediaOf(schemas.reply), otherReplies: schemas.otherReplies, errors: [], handle });
