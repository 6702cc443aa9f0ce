import type { NatsConnection } from '@nats-io/transport-node';
import { liveFeedSubject } from '@shared/bus/live-feeds';
import type { SessionPreview } from '@shared/schema/session-preview';

/** Where the runtime sends the previews of answers being streamed: the live feed the gateways follow per session. */
export interface SessionPreviews {
  publish(preview: SessionPreview): void;
}

/**
 * Core NATS, at most once, to the gateway replicas whose streams asked for this session's
 * previews (none: the server drops it). Never fails the turn: a preview lost is a preview the
 * buffered event makes good.
 */
export function sessionPreviews(nc: NatsConnection, prefix: string): SessionPreviews {
  const encoder = new TextEncoder();
  return {
    publish(preview) {
      try {
        nc.publish(liveFeedSubject(prefix, 'sessionPreviews', preview.session_id), encoder.encode(JSON.stringify(preview)));
      } catch {
        // A closed or draining connection: the turn goes on without its previews.
      }
    },
  };
}
