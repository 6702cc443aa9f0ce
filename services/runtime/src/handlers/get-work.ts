import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { workSubjects } from '@shared/bus/subjects/runtime';
import { found } from '@shared/errors/api-error';
import { findWorkItem } from '../db/work-items';
import { workNotFound } from '../domain/not-found';
import { presentWork } from '../domain/work-lifecycle';
import type { RuntimeDeps } from '../deps';

export const getWork =
  (deps: RuntimeDeps): Handler<typeof workSubjects.get> =>
  async ({ environment_id, work_id }, ctx) =>
    presentWork(found(await findWorkItem(deps.db, tenantOf(ctx), environment_id, work_id), () => workNotFound(work_id)));
