import { Type } from '@sinclair/typebox';
import { workSubjects } from '@shared/bus/subjects/runtime';
import { invalidRequest } from '@shared/errors/api-error';
import { Closed } from '@shared/schema/common';
import { PollWorkRequest, StopWorkRequest, UpdateWorkRequest } from '@shared/schema/work';
import { pagedQuery, pageRoute, servePage } from '../../routing/pagination';
import { resourceModule } from '../../routing/resource-module';
import { route } from '../../routing/route';
import type { GatewayDeps } from '../../deps';

export const workListRoute = pageRoute({
  endpoint: 'environments.work.list',
  query: pagedQuery({}),
  subject: workSubjects.list,
  toFilters: (_query, params: { environment_id: string }) => ({ environment_id: params.environment_id }),
});

// The HTTP forms are the bus requests' own fields (shared/schema/work.ts): one schema each.
const PollQuery = Type.Pick(PollWorkRequest, ['block_ms', 'reclaim_older_than_ms'], { additionalProperties: false });
/** The SDK sends the heartbeat's parameters in the query, not the body. */
const HeartbeatQuery = Type.Object(
  {
    desired_ttl_seconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 3600 })),
    expected_last_heartbeat: Type.Optional(Type.String({ maxLength: 64 })),
  },
  { additionalProperties: false },
);
/** `<prefix>-worker-id`: who polls (SDK `Anthropic-Worker-ID`), counted in the queue's `workers_polling`. */
const WORKER_ID_MAX = 256;
const WorkerIdHeader = (prefix: string) =>
  Type.Object({
    [`${prefix}-worker-id`]: Type.Optional(Type.String({ maxLength: WORKER_ID_MAX, description: 'Names the polling worker; counted in workers_polling.' })),
  });
const StopBody = Closed({ force: StopWorkRequest.properties.force });
const UpdateBody = Closed({ metadata: UpdateWorkRequest.properties.metadata });

/**
 * /v1/environments/{id}/work: an environment's work queue, as the SDK's WorkPoller and
 * EnvironmentWorker speak it, served by the runtime service. Workers poll with an API key of the
 * workspace (their environment key); a polled item's secret carries the sessions token its
 * heartbeat, stop and session calls use (routing/session-scope.ts).
 */
export const environmentWorkModule = (deps: GatewayDeps) =>
  resourceModule('environment work', deps, [
    // Nothing within block_ms: a null reply, which resourceModule answers 204. The SDK's
    // WorkPoller names itself in a header; the runtime counts it in `workers_polling`.
    route.get(
      '/v1/environments/:environment_id/work/poll',
      { query: PollQuery, headers: WorkerIdHeader(deps.config.API_HEADER_PREFIX), reply: workSubjects.poll.reply },
      ({ call, params, query, headers }) => {
        const header = `${deps.config.API_HEADER_PREFIX}-worker-id`;
        const workerId = headers?.get(header) || undefined;
        if (workerId && workerId.length > WORKER_ID_MAX) throw invalidRequest(`${header}: must be at most ${WORKER_ID_MAX} characters`);
        return deps.bus.call(workSubjects.poll, call, { environment_id: params.environment_id, ...query, ...(workerId ? { worker_id: workerId } : {}) });
      },
    ),
    route.get('/v1/environments/:environment_id/work/stats', { reply: workSubjects.stats.reply }, ({ call, params }) =>
      deps.bus.call(workSubjects.stats, call, { environment_id: params.environment_id }),
    ),
    route.list('/v1/environments/:environment_id/work', servePage(workListRoute, deps)),
    route.get('/v1/environments/:environment_id/work/:work_id', { reply: workSubjects.get.reply }, ({ call, params }) =>
      deps.bus.call(workSubjects.get, call, params),
    ),
    route.post('/v1/environments/:environment_id/work/:work_id', { body: UpdateBody, reply: workSubjects.update.reply }, ({ call, params, body }) =>
      deps.bus.call(workSubjects.update, call, { ...params, metadata: body.metadata }),
    ),
    // 409: not queued any more (ack), not acknowledged yet (heartbeat), already stopped (stop);
    // 412: the heartbeat's expected_last_heartbeat is not the item's.
    route.post('/v1/environments/:environment_id/work/:work_id/ack', { reply: workSubjects.ack.reply, errors: [409] }, ({ call, params }) =>
      deps.bus.call(workSubjects.ack, call, params),
    ),
    route.post(
      '/v1/environments/:environment_id/work/:work_id/heartbeat',
      { query: HeartbeatQuery, reply: workSubjects.heartbeat.reply, errors: [409, 412] },
      ({ call, params, query }) => deps.bus.call(workSubjects.heartbeat, call, { ...params, ...query }),
    ),
    route.post('/v1/environments/:environment_id/work/:work_id/stop', { body: StopBody, reply: workSubjects.stop.reply, errors: [409] }, ({ call, params, body }) =>
      deps.bus.call(workSubjects.stop, call, { ...params, ...body }),
    ),
  ]);
