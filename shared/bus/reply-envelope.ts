import { Type, type Static } from '@sinclair/typebox';
import { ErrorDetails } from '../schema/common';

/** Every reply is either a result or a typed error; the error carries what the gateway shows. */
export const BusError = Type.Object({
  type: Type.String(),
  message: Type.String(),
  status: Type.Integer(),
  details: Type.Optional(ErrorDetails),
  /** `ApiError.fields`: the error object's own extra fields (a memory path conflict's). */
  fields: Type.Optional(Type.Record(Type.String(), Type.String())),
});
export type BusError = Static<typeof BusError>;

export type ReplyEnvelope = { ok: true; result: unknown } | { ok: false; error: BusError };
