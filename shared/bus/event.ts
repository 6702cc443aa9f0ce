import { Type, type Static, type TSchema } from '@sinclair/typebox';
import type { StreamKey } from './streams';

/** A domain event kind, declared once with its payload schema; publisher and consumers share it. */
export interface EventType<P extends TSchema = TSchema> {
  readonly stream: StreamKey;
  /** e.g. `deployments.updated`; the install prefix is added on the wire. */
  readonly subject: string;
  readonly payload: P;
}

export const defineEvent = <P extends TSchema>(stream: StreamKey, subject: string, payload: P): EventType<P> => ({
  stream,
  subject,
  payload,
});

export const EventEnvelope = Type.Object({
  id: Type.String(),
  type: Type.String(),
  occurred_at: Type.String(),
  organization_id: Type.String(),
  workspace_id: Type.String(),
  data: Type.Unknown(),
});
export type EventEnvelope<D = unknown> = Omit<Static<typeof EventEnvelope>, 'data'> & { data: D };
