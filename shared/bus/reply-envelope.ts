import { Type, type Static } from '@sinclair/typebox';
import { ErrorDetails } from '../schema/common';

/** Every reply is either a result or a typed error; the error carries what the gateway shows. */
export const BusError = Type.Object({
  type: Type.String(),
  message: Type.String(),
  status: Type.Integer(),
  details: Type.Optional(ErrorDetails),
});
export type BusError = Static<typeof BusError>;

export type ReplyEnvelope = { ok: true; result: unknown } | { ok: false; error: BusError };
