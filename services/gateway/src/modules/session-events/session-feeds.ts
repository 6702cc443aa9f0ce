import type { NatsConnection } from '@nats-io/transport-node';
import { LiveFeedListeners } from '@shared/bus/live-feed-listeners';
import { SessionEventsAppended } from '@shared/schema/session-event';
import { SessionPreview } from '@shared/schema/session-preview';

/** This replica's share of the runtime's previews of events being produced, for streams that ask (`event_deltas`). */
export type SessionPreviewFeed = LiveFeedListeners<typeof SessionPreview>;
/** This replica's share of what each append added to a session's log, for its open streams. */
export type SessionAppendFeed = LiveFeedListeners<typeof SessionEventsAppended>;

export const sessionPreviewFeed = (nc: NatsConnection, prefix: string): SessionPreviewFeed =>
  new LiveFeedListeners(nc, prefix, 'sessionPreviews', SessionPreview, (preview) => preview.session_id);

export const sessionAppendFeed = (nc: NatsConnection, prefix: string): SessionAppendFeed =>
  new LiveFeedListeners(nc, prefix, 'sessionEvents', SessionEventsAppended, (appended) => appended.session_id);
