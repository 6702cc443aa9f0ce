import type { Handler } from '@shared/bus/bus-server';
import type { workSubjects } from '@shared/bus/subjects/runtime';
import { applyMetadataPatch } from '@shared/metadata/apply-metadata-patch';
import { changeWorkItem } from './work-change';
import { presentWork } from '../domain/work-lifecycle';
import type { RuntimeDeps } from '../deps';

/** Metadata only, merged (a null removes a key). */
export const updateWork =
  (deps: RuntimeDeps): Handler<typeof workSubjects.update> =>
  async ({ environment_id, work_id, metadata }, ctx) => {
    const { after: row } = await changeWorkItem(deps, ctx, { environment_id, work_id }, (item) => ({ metadata: applyMetadataPatch(item.metadata, metadata) }));
    return presentWork(row);
  };
