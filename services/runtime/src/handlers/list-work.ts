import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { workSubjects } from '@shared/bus/subjects/runtime';
import { listWorkPage } from '../db/work-items';
import { presentWork } from '../domain/work-lifecycle';
import type { RuntimeDeps } from '../deps';

export const listWork =
  (deps: RuntimeDeps): Handler<typeof workSubjects.list> =>
  async (request, ctx) =>
    listWorkPage(deps.db, tenantOf(ctx), request, (row) => presentWork(row));
