import type { Static, TObject, TSchema } from '@sinclair/typebox';
import type { ResolvePath } from 'elysia';
import type { CallContext } from '@shared/bus/call-context';
import { parseQuery } from '../http/query';
import { emptyBody, jsonBody, type RawBody } from '../http/raw-body';

/**
 * A body that is not a plain JSON document (a multipart upload, a JSON body whose errors need
 * more than the schema can say): the route reads the raw body itself, still only after the guard.
 */
export type BodyReader<T> = (raw: RawBody | undefined) => T | Promise<T>;

/** What one route accepts, declared once next to it. */
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
}

type BodyOf<B> = B extends TSchema ? Static<B> : B extends BodyReader<infer T> ? T : undefined;
type QueryOf<Q> = Q extends TObject ? Static<Q> : undefined;

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
}

type Method = 'GET' | 'POST' | 'DELETE';

/** One entry of a resource's route table (routing/resource-module.ts registers them with Elysia). */
export interface Route {
  method: Method;
  path: string;
  /** Every route's own params type is accepted here: the router matched the path, so its parameters are there. */
  handle(context: GuardedContext<Record<string, string>>): Promise<unknown>;
}

type RouteHandler<Path extends string, S extends RouteSchemas> = (input: RouteInput<S, ResolvePath<Path>>) => unknown;

/**
 * Declares a route's input once and hands its handler typed `params`, `body` and `query`.
 * Elysia's own schema validation is not used: it runs before `resolve`, that is before the guard
 * has checked key, permission and versioning and read the body (the documented order: route,
 * key, permission, version, then body), and its messages do not name the field. So the guard
 * reads the body, and the route parses what it declared with our validator: query, then body.
 */
function define<Path extends string, S extends RouteSchemas>(method: Method, path: Path, schemas: S, handler: RouteHandler<Path, S>): Route {
  // Destructured where Elysia can see it: it reads handlers' parameters to decide what to parse.
  const handle = async ({ call, url, params, body: raw, request }: GuardedContext<ResolvePath<Path>>) => {
    const query = schemas.query === undefined ? undefined : parseQuery(url, schemas.query);
    const body = await readBody(schemas.body, raw);
    // The two conversions above are what BodyOf/QueryOf describe; TypeScript cannot follow a
    // conditional type through a runtime branch.
    return handler({ call, params, body, query, headers: request?.headers } as RouteInput<S, ResolvePath<Path>>);
  };
  return { method, path, handle };
}

function readBody(spec: RouteSchemas['body'], raw: RawBody | undefined): unknown {
  if (spec === undefined) return emptyBody(raw);
  if (typeof spec === 'function') return spec(raw);
  return jsonBody(spec, raw);
}

export const route = {
  get: <const Path extends string, const S extends RouteSchemas>(path: Path, schemas: S, handler: RouteHandler<Path, S>) =>
    define('GET', path, schemas, handler),
  post: <const Path extends string, const S extends RouteSchemas>(path: Path, schemas: S, handler: RouteHandler<Path, S>) =>
    define('POST', path, schemas, handler),
  delete: <const Path extends string, const S extends RouteSchemas>(path: Path, schemas: S, handler: RouteHandler<Path, S>) =>
    define('DELETE', path, schemas, handler),
  /** A list (routing/pagination.ts: `servePage`, `serveBidirectionalPage`): it parses its own query. */
  list: <const Path extends string>(path: Path, serve: (context: GuardedContext<ResolvePath<Path>>) => Promise<unknown>): Route => ({
    method: 'GET',
    path,
    handle: serve,
  }),
};
