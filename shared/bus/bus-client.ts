import { errors as natsErrors, type NatsConnection } from '@nats-io/transport-node';
import type { Static, TSchema } from '@sinclair/typebox';
import { ApiError, isApiErrorType } from '../errors/api-error';
import type { Logger } from '../log/logger';
import { busCalls, type BusCalls } from '../telemetry/bus-calls';
import { Telemetry } from '../telemetry/telemetry';
import { isValid } from '../validation/validate';
import { contextToHeaders, type CallContext } from './call-context';
import type { PayloadCodec } from './payload-codec';
import type { ReplyEnvelope } from './reply-envelope';
import { rpcSubject, type Subject } from './subject';

export interface BusClientOptions {
  prefix: string;
  timeoutMs: number;
  logger: Logger;
  /**
   * Check every reply against its subject's schema. On in tests (NODE_ENV=test), where a server
   * that breaks its declared reply is a bug to fail on; off elsewhere: the reply comes from our
   * own typed code, which only that service's NATS identity may serve, and checking it (format
   * checks of every timestamp of a page included) was a tenth of the gateway's CPU on a list.
   */
  checkReplies?: boolean;
  /** The process's metrics and traces; absent (tests, tools), calls are counted where nobody reads them. */
  telemetry?: Telemetry;
}

/** Typed request/reply: resolves with the subject's reply type or throws an ApiError. */
export class BusClient {
  private readonly calls: BusCalls;

  constructor(
    private readonly nc: NatsConnection,
    private readonly codec: PayloadCodec,
    private readonly options: BusClientOptions,
  ) {
    this.calls = (options.telemetry ?? Telemetry.detached()).seam(busCalls);
  }

  async call<Req extends TSchema, Rep extends TSchema>(
    subject: Subject<Req, Rep>,
    ctx: CallContext,
    request: Static<Req>,
    options: { timeoutMs?: number } = {},
  ): Promise<Static<Rep>> {
    const started = performance.now();
    let status = 'ok';
    const outgoing = contextToHeaders(ctx);
    const observation = this.calls.begin(subject.name, ctx.request_id, outgoing);
    try {
      const { data, headers } = await this.codec.encode(request, outgoing);
      const msg = await this.nc
        .request(rpcSubject(this.options.prefix, subject), data, {
          timeout: options.timeoutMs ?? this.options.timeoutMs,
          headers,
        })
        .catch((err: unknown) => {
          throw translateTransportError(err, subject);
        });
      const envelope = (await this.codec.decode(msg.data, msg.headers)) as ReplyEnvelope;
      if (!envelope.ok) {
        const type = isApiErrorType(envelope.error.type) ? envelope.error.type : 'api_error';
        status = type;
        const { status: errorStatus, details, fields } = envelope.error;
        throw new ApiError(type, envelope.error.message, { status: errorStatus, details, fields });
      }
      if (this.options.checkReplies !== false && !isValid(subject.reply, envelope.result)) {
        // A reply that breaks its declared schema is a bug in the server; never pass it on.
        throw new ApiError('api_error', undefined, { cause: new Error(`invalid reply on ${subject.name}`) });
      }
      return envelope.result as Static<Rep>;
    } catch (err) {
      if (err instanceof ApiError) status = err.type;
      else status = 'api_error';
      throw err instanceof ApiError ? err : new ApiError('api_error', undefined, { cause: err });
    } finally {
      observation.end(status);
      // Debug for the reason given in bus-server.ts (one line per hop is the dearest part of a hop).
      this.options.logger.debug('bus call', {
        request_id: ctx.request_id,
        organization_id: ctx.tenant?.organization_id,
        workspace_id: ctx.tenant?.workspace_id,
        operation: subject.name,
        status,
        duration_ms: Math.round((performance.now() - started) * 100) / 100,
      });
    }
  }
}

function translateTransportError(err: unknown, subject: Subject): ApiError {
  const noResponders =
    err instanceof natsErrors.NoRespondersError ||
    (err instanceof natsErrors.RequestError && err.isNoResponders());
  if (noResponders) {
    return new ApiError('overloaded_error', `The ${subject.service} service is unavailable; try again shortly`, {
      cause: err,
    });
  }
  const timedOut =
    err instanceof natsErrors.TimeoutError ||
    (err instanceof natsErrors.RequestError && err.cause instanceof natsErrors.TimeoutError);
  if (timedOut) {
    return new ApiError('timeout_error', `The ${subject.service} service did not answer in time`, { cause: err });
  }
  return new ApiError('api_error', undefined, { cause: err });
}
