import { Type, type Static } from '@sinclair/typebox';
import { Closed, IdOf } from './common';

/**
 * Previews of events being produced (SDK `event_start` / `event_delta`, sessions.d.ts): sent
 * only on event streams that ask for them with `event_deltas`, never in the log. The runtime
 * streams each model answer and publishes the previews on a live feed (shared/bus/live-feeds.ts);
 * the buffered event, appended when the answer is whole, carries the same id and concludes them.
 */

/** The event types a stream may preview (SDK BetaManagedAgentsDeltaType). */
export const PREVIEWED_EVENT_TYPES = ['agent.message', 'agent.thinking'] as const;
export type PreviewedEventType = (typeof PREVIEWED_EVENT_TYPES)[number];
export const PreviewedEventType = Type.Union(PREVIEWED_EVENT_TYPES.map((t) => Type.Literal(t)));

/** SDK BetaManagedAgentsStartEvent: a preview opens, naming the id the buffered event will carry. */
export const EventStart = Closed(
  { type: Type.Literal('event_start'), event: Closed({ id: IdOf('sessionEvent'), type: PreviewedEventType }) },
  'Opens a preview of an event being produced (streams with `event_deltas` only; never in the log).',
);

/** SDK BetaManagedAgentsDeltaEvent: one fragment of an `agent.message` being produced. */
export const EventDelta = Closed(
  {
    type: Type.Literal('event_delta'),
    event_id: IdOf('sessionEvent'),
    delta: Closed({
      type: Type.Literal('content_delta'),
      /** Which entry of the event's `content` the fragment lands in. */
      index: Type.Optional(Type.Integer({ minimum: 0 })),
      content: Closed({ type: Type.Literal('text'), text: Type.String() }),
    }),
  },
  'A fragment of a previewed `agent.message` (streams with `event_deltas` only; never in the log).',
);

export const PreviewEvent = Type.Union([EventStart, EventDelta]);
export type PreviewEvent = Static<typeof PreviewEvent>;

/** One preview on the live feed: the event as streams send it, and the type of the event it previews. */
export const SessionPreview = Closed({ session_id: IdOf('session'), previewed: PreviewedEventType, event: PreviewEvent });
export type SessionPreview = Static<typeof SessionPreview>;
