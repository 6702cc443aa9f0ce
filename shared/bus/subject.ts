import type { Static, TSchema } from '@sinclair/typebox';

/**
 * Processes with their own bus identity (a NATS user each). The server's subject permissions
 * are generated from the subject declarations (shared/bus/permissions.ts), so who may call what
 * is written here once, next to the operation, and enforced by NATS. No identity may end with
 * `-<another identity>`: user names and inboxes join the install's BUS_PREFIX with `-`, so that
 * would let two installs' names meet.
 */
export const BUS_IDENTITIES = ['gateway', 'deployments', 'vaults', 'catalog', 'scheduler', 'runtime', 'sandbox-worker'] as const;
export type BusIdentity = (typeof BUS_IDENTITIES)[number];

/**
 * A request/reply operation, declared once. Client and server both take their types from here,
 * so the two sides cannot drift apart.
 */
export interface Subject<Req extends TSchema = TSchema, Rep extends TSchema = TSchema> {
  /** Relative name, e.g. `catalog.models.list`; the bus adds `rpc.` and the install prefix. */
  readonly name: string;
  /** Queue group: every replica of the owning service shares the load. */
  readonly service: string;
  /** Identities allowed to request it: the gateway for public operations, named services for internal ones. */
  readonly callers: readonly BusIdentity[];
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
  options: { callers?: readonly BusIdentity[] } = {},
): Subject<Req, Rep> {
  return { service, name: `${service}.${name}`, callers: options.callers ?? ['gateway'], request, reply };
}

/** One operation before it is named: its request and reply schemas, and who may call it (default: the gateway). */
export type Operation = readonly [request: TSchema, reply: TSchema, options?: { callers?: readonly BusIdentity[] }];

/**
 * A resource's operations, keyed by verb. Each subject's name is derived from its key,
 * `<service>.<resource>.<verb>`, so the naming rule holds by construction: a map key and the
 * NATS name it stands for cannot disagree.
 */
export function defineSubjects<const M extends Record<string, Operation>>(
  service: string,
  resource: string,
  operations: M,
): { [Verb in keyof M]: Subject<M[Verb][0], M[Verb][1]> } {
  const subjects = Object.entries(operations).map(([verb, [request, reply, options]]) => [
    verb,
    defineSubject(service, `${resource}.${verb}`, request, reply, options),
  ]);
  return Object.fromEntries(subjects) as { [Verb in keyof M]: Subject<M[Verb][0], M[Verb][1]> };
}

export function rpcSubject(prefix: string, subject: Subject): string {
  return prefix ? `${prefix}.rpc.${subject.name}` : `rpc.${subject.name}`;
}
