import { sessionEventSubjects } from '@shared/bus/subjects/session-events';
import { invalidRequest } from '@shared/errors/api-error';
import { isIdOf } from '@shared/ids/ids';
import { SendSessionEventsBody } from '@shared/schema/session-event';
import { serveBidirectionalPage } from '../../routing/pagination';
import { resourceModule } from '../../routing/resource-module';
import { route } from '../../routing/route';
import type { GatewayDeps } from '../../deps';
import { openEventStream } from './event-stream';
import { StreamSlots } from './stream-slots';
import { eventListRoute, EventStreamHeaders, EventStreamQuery, readEventStreamQuery, SessionEventStream } from './model';

/** An idle stream's keep-alive comment and log re-read: well inside the connection's idle timeout (15 s at least). */
export const STREAM_KEEP_ALIVE_MS = 10_000;

/**
 * /v1/sessions/{id}/events: a session's event log, kept by the deployments service. List pages
 * both ways (the SDK's PageCursor follows `next_page`); send appends the SDK's user event kinds;
 * stream is Server-Sent Events, live, resumable with `Last-Event-ID` (event-stream.ts).
 */
export const sessionEventsModule = (deps: GatewayDeps) => {
  const slots = new StreamSlots(deps.config.SESSION_STREAMS_PER_WORKSPACE);
  return resourceModule('session-events', deps, [
    route.list('/v1/sessions/:session_id/events', serveBidirectionalPage(eventListRoute, deps)),
    route.post('/v1/sessions/:session_id/events', { body: SendSessionEventsBody, reply: sessionEventSubjects.send.reply }, ({ call, params, body }) =>
      deps.bus.call(sessionEventSubjects.send, call, { session_id: params.session_id, events: body.events }),
    ),
    route.list('/v1/sessions/:session_id/events/stream', {
      query: EventStreamQuery,
      headers: EventStreamHeaders,
      reply: SessionEventStream,
      serve: async ({ call, url, params, request }) => {
        const previewTypes = readEventStreamQuery(url);
        const lastEventId = request?.headers.get('last-event-id') || null;
        if (lastEventId !== null && !isIdOf('sessionEvent', lastEventId)) {
          throw invalidRequest('Last-Event-ID: must be the id of an event of this session (sevt_ followed by 24 letters or digits)');
        }
        return openEventStream(
          { bus: deps.bus, follower: deps.sessionLog, previews: deps.sessionPreviews, appends: deps.sessionAppends, slots, logger: deps.logger, options: { keepAliveMs: STREAM_KEEP_ALIVE_MS } },
          call,
          params.session_id,
          lastEventId,
          request?.signal,
          previewTypes,
        );
      },
    }),
  ]);
};
