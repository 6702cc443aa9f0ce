import { Type } from '@sinclair/typebox';
import { workSubjects } from '@shared/bus/subjects/runtime';
import { Closed, Nullable } from '@shared/schema/common';
import { pagedQuery, pageRoute, servePage } from '../../routing/pagination';
import { resourceModule } from '../../routing/resource-module';
import { route } from '../../routing/route';
import type { GatewayDeps } from '../../service';

export const workListRoute = pageRoute({
  endpoint: 'environments.work.list',
  query: pagedQuery({}),
  subject: workSubjects.list,
  toFilters: (_query, params: { environment_id: string }) => ({ environment_id: params.environment_id }),
});

const PollQuery = Type.Object(
  {
    block_ms: Type.Optional(Type.Integer({ minimum: 0, maximum: 60_000 })),
    reclaim_older_than_ms: Type.Optional(Type.Integer({ minimum: 0, maximum: 7 * 24 * 3600_000 })),
  },
  { additionalProperties: false },
);
/** The SDK sends the heartbeat's parameters in the query, not the body. */
const HeartbeatQuery = Type.Object(
  {
    desired_ttl_seconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 3600 })),
    expected_last_heartbeat: Type.Optional(Type.String({ maxLength: 64 })),
  },
  { additionalProperties: false },
);
const StopBody = Closed({ force: Type.Optional(Type.Boolean()) });
const UpdateBody = Closed({
  metadata: Type.Record(Type.String({ minLength: 1, maxLength: 64 }), Nullable(Type.String({ maxLength: 512 })), { maxProperties: 16 }),
});

/**
 * /v1/environments/{id}/work: an environment's work queue, as the SDK's WorkPoller and
 * EnvironmentWorker speak it, served by the runtime service. Workers poll with an API key of the
 * workspace (their environment key); a polled item's secret carries the sessions token its
 * heartbeat, stop and session calls use (routing/session-scope.ts).
 */
export const environmentWorkModule = (deps: GatewayDeps) =>
  resourceModule('environment work', deps, [
    route.get('/v1/environments/:environment_id/work/poll', { query: PollQuery }, ({ call, params, query }) =>
      deps.bus.call(workSubjects.poll, call, { environment_id: params.environment_id, ...query }),
    ),
    route.get('/v1/environments/:environment_id/work/stats', {}, ({ call, params }) =>
      deps.bus.call(workSubjects.stats, call, { environment_id: params.environment_id }),
    ),
    route.list('/v1/environments/:environment_id/work', servePage(workListRoute, deps)),
    route.get('/v1/environments/:environment_id/work/:work_id', {}, ({ call, params }) => deps.bus.call(workSubjects.get, call, params)),
    route.post('/v1/environments/:environment_id/work/:work_id', { body: UpdateBody }, ({ call, params, body }) =>
      deps.bus.call(workSubjects.update, call, { ...params, metadata: body.metadata }),
    ),
    route.post('/v1/environments/:environment_id/work/:work_id/ack', {}, ({ call, params }) => deps.bus.call(workSubjects.ack, call, params)),
    route.post('/v1/environments/:environment_id/work/:work_id/heartbeat', { query: HeartbeatQuery }, ({ call, params, query }) =>
      deps.bus.call(workSubjects.heartbeat, call, { ...params, ...query }),
    ),
    route.post('/v1/environments/:environment_id/work/:work_id/stop', { body: StopBody }, ({ call, params, body }) =>
      deps.bus.call(workSubjects.stop, call, { ...params, ...body }),
    ),
  ]);
