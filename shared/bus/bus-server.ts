import type { Msg, NatsConnection, Subscription } from '@nats-io/transport-node';
import { asOverloadedIfDatabaseUnavailable } from '../db/database-unavailable';
import { ApiError } from '../errors/api-error';
import type { Logger } from '../log/logger';
import { busHandlers, type BusHandlers } from '../telemetry/bus-handlers';
import { Telemetry } from '../telemetry/telemetry';
import { validate } from '../validation/validate';
import { contextFromHeaders, type CallContext } from './call-context';
import type { PayloadCodec } from './payload-codec';
import type { ReplyEnvelope } from './reply-envelope';
import { rpcSubject, type ReplyOf, type RequestOf, type Subject } from './subject';
import type { Release, TenantBulkhead } from './tenant-bulkhead';

/** What serves one subject: its request in, its reply out, both typed by the subject's schemas. */
export type Handler<S extends Subject> = (request: RequestOf<S>, ctx: ServedContext) => Promise<ReplyOf<S>>;

/** A served call's context: the caller's, and the tenant's bulkhead slot the call holds. */
export interface ServedContext extends CallContext {
  /**
   * Hands the tenant's slot back before the reply, for a handler whose remaining wait holds no
   * database connection of its own: a group commit (one connection for the whole batch, its
   * queue fair between tenants and bounded per tenant, see TenantBulkhead.batchLanes). Harmless
   * twice; absent where no bulkhead admitted the call (tests calling a handler directly).
   */
  releaseTenantSlot?: Release;
}

/**
 * Serves subjects in queue groups so N replicas share the load. Messages are handled
 * concurrently, each tenant's through the bulkhead (at most so many at once, the rest queued or
 * refused with 429), so one tenant cannot take every database connection; in-flight work,
 * queued requests included, is tracked so a graceful stop answers it before draining.
 */
export class BusServer {
  private readonly subscriptions: Subscription[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private readonly served: BusHandlers;

  constructor(
    private readonly nc: NatsConnection,
    private readonly codec: PayloadCodec,
    private readonly options: { prefix: string; logger: Logger; bulkhead?: TenantBulkhead; telemetry?: Telemetry },
  ) {
    this.served = (options.telemetry ?? Telemetry.detached()).seam(busHandlers);
  }

  handle<S extends Subject>(subject: S, handler: Handler<S>): this {
    const sub = this.nc.subscribe(rpcSubject(this.options.prefix, subject), { queue: subject.service });
    this.subscriptions.push(sub);
    (async () => {
      for await (const msg of sub) {
        const work = this.respond(subject, handler, msg).finally(() => this.inFlight.delete(work));
        this.inFlight.add(work);
      }
    })().catch((err) => this.options.logger.error('subscription ended', { operation: subject.name, error: err }));
    return this;
  }

  /**
   * Serves one resource's subject map (`defineSubjects`), a handler per verb. The handlers are
   * typed by the map, so a verb declared there and served by no one is a type error, not a
   * request that times out at run time.
   */
  serve<M extends Record<string, Subject>>(subjects: M, handlers: { [Verb in keyof M]: Handler<M[Verb]> }): this {
    for (const verb of Object.keys(subjects) as Array<keyof M>) this.handle(subjects[verb], handlers[verb]);
    return this;
  }

  /** Stops taking new requests and waits for the ones already accepted. */
  async stop(): Promise<void> {
    await Promise.all(this.subscriptions.map((s) => s.drain().catch(() => undefined)));
    await Promise.allSettled([...this.inFlight]);
  }

  private async respond<S extends Subject>(
    subject: S,
    handler: Handler<S>,
    msg: Msg,
  ): Promise<void> {
    const started = performance.now();
    const ctx = contextFromHeaders(msg.headers);
    const observation = this.served.begin(subject.name, ctx.request_id, msg.headers);
    let envelope: ReplyEnvelope;
    let release: Release | undefined;
    try {
      envelope = await observation.run(async () => {
        // Before the payload is read: a queued request holds only its message, not its decoded body.
        release = await this.options.bulkhead?.acquire(ctx.tenant);
        const raw = await this.codec.decode(msg.data, msg.headers);
        const request = validate(subject.request, raw) as RequestOf<S>;
        return { ok: true, result: await handler(request, release ? { ...ctx, releaseTenantSlot: release } : ctx) } as const;
      });
    } catch (err) {
      // A database fault (lost or refused connection, pool exhausted, deadlock after retries) is
      // the backing service's, not the caller's: 503 overloaded_error, retryable, on every service.
      const known = asOverloadedIfDatabaseUnavailable(err);
      const apiError = known instanceof ApiError ? known : new ApiError('api_error', undefined, { cause: err });
      if (apiError.type === 'api_error') {
        this.options.logger.error('handler failed', {
          request_id: ctx.request_id,
          operation: subject.name,
          error: apiError.cause ?? apiError,
        });
      } else if (apiError.type === 'overloaded_error' && apiError.cause !== undefined) {
        this.options.logger.warn('handler failed: backing service unavailable', {
          request_id: ctx.request_id,
          operation: subject.name,
          error: apiError.cause,
        });
      }
      const { type, message, status, details, fields } = apiError;
      envelope = { ok: false, error: { type, message, status, ...(details ? { details } : {}), ...(fields ? { fields } : {}) } };
    }
    try {
      const { data, headers } = await this.codec.encode(envelope);
      msg.respond(data, { headers });
    } catch (err) {
      this.options.logger.error('reply failed', { request_id: ctx.request_id, operation: subject.name, error: err });
    }
    // Held until the reply is out: encoding a large reply (and its offload) is the tenant's work too.
    release?.();
    observation.end(envelope.ok ? 'ok' : envelope.error.type);
    // Debug, not info: the gateway's access line already records every API request with its id,
    // and a line per hop cost more CPU (serialising and writing it) than the hop's own work.
    // Failures are logged above at warn or error whatever the level.
    this.options.logger.debug('bus request', {
      request_id: ctx.request_id,
      organization_id: ctx.tenant?.organization_id,
      workspace_id: ctx.tenant?.workspace_id,
      operation: subject.name,
      status: envelope.ok ? 'ok' : envelope.error.type,
      duration_ms: Math.round((performance.now() - started) * 100) / 100,
    });
  }
}
