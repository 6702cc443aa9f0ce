import { memorySubjects, memoryVersionSubjects } from '@shared/bus/subjects/memories';
import { MemoryCreateBody, MemoryUpdateBody } from '@shared/schema/memory';
import { servePage } from '../../routing/pagination';
import { resourceModule } from '../../routing/resource-module';
import { route } from '../../routing/route';
import type { GatewayDeps } from '../../deps';
import { conflicts, DeleteMemoryQuery, memoryListRoute, memoryVersionListRoute, ViewQuery, callerActor } from './model';

const MEMORIES = '/v1/memory_stores/:memory_store_id/memories';
const MEMORY = `${MEMORIES}/:memory_id`;
const VERSIONS = '/v1/memory_stores/:memory_store_id/memory_versions';
const VERSION = `${VERSIONS}/:memory_version_id`;

/**
 * A memory store's memories and their versions, served by the catalog. `view` defaults to
 * `full` on a retrieve and to `basic` on everything else (the SDK's MemoryView). Writes name
 * their author (`actor`) from the caller.
 */
export const memoriesModule = (deps: GatewayDeps) =>
  resourceModule('memories', deps, [
    route.post(
      MEMORIES,
      { query: ViewQuery, body: MemoryCreateBody, reply: memorySubjects.create.reply, otherReplies: conflicts.path },
      ({ call, params, query, body }) =>
        deps.bus.call(memorySubjects.create, call, { ...params, memory: body, view: query.view ?? 'basic', actor: callerActor(call) }),
    ),
    route.list(MEMORIES, servePage(memoryListRoute, deps)),
    route.get(MEMORY, { query: ViewQuery, reply: memorySubjects.get.reply }, ({ call, params, query }) =>
      deps.bus.call(memorySubjects.get, call, { ...params, view: query.view ?? 'full' }),
    ),
    route.post(
      MEMORY,
      { query: ViewQuery, body: MemoryUpdateBody, reply: memorySubjects.update.reply, otherReplies: conflicts.both },
      ({ call, params, query, body }) =>
        deps.bus.call(memorySubjects.update, call, { ...params, update: body, view: query.view ?? 'basic', actor: callerActor(call) }),
    ),
    route.delete(MEMORY, { query: DeleteMemoryQuery, reply: memorySubjects.delete.reply, otherReplies: conflicts.precondition }, ({ call, params, query }) =>
      deps.bus.call(memorySubjects.delete, call, { ...params, ...query, actor: callerActor(call) }),
    ),
    route.list(VERSIONS, servePage(memoryVersionListRoute, deps)),
    route.get(VERSION, { query: ViewQuery, reply: memoryVersionSubjects.get.reply }, ({ call, params, query }) =>
      deps.bus.call(memoryVersionSubjects.get, call, { ...params, view: query.view ?? 'full' }),
    ),
    route.post(`${VERSION}/redact`, { reply: memoryVersionSubjects.redact.reply }, ({ call, params }) =>
      deps.bus.call(memoryVersionSubjects.redact, call, { ...params, actor: callerActor(call) }),
    ),
  ]);
