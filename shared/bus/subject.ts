import type { Static, TSchema } from '@sinclair/typebox';

/**
 * A request/reply operation, declared once. Client and server both take their types from here,
 * so the two sides cannot drift apart.
 */
export interface Subject<Req extends TSchema = TSchema, Rep extends TSchema = TSchema> {
  /** Relative name, e.g. `catalog.models.list`; the bus adds `rpc.` and the install prefix. */
  readonly name: string;
  /** Queue group: every replica of the owning service shares the load. */
  readonly service: string;
  readonly request: Req;
  readonly reply: Rep;
}

export type RequestOf<S> = S extends Subject<infer R, TSchema> ? Static<R> : never;
export type ReplyOf<S> = S extends Subject<TSchema, infer R> ? Static<R> : never;

export function defineSubject<Req extends TSchema, Rep extends TSchema>(
  service: string,
  name: string,
  request: Req,
  reply: Rep,
): Subject<Req, Rep> {
  return { service, name: `${service}.${name}`, request, reply };
}

export function rpcSubject(prefix: string, subject: Subject): string {
  return prefix ? `${prefix}.rpc.${subject.name}` : `rpc.${subject.name}`;
}
