import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { workSubjects } from '@shared/bus/subjects/runtime';
import { retryTransient } from '@shared/db/retry-transient';
import { found } from '@shared/errors/api-error';
import { findWorkItem, updateWorkItem } from '../db/work-items';
import { workNotFound } from '../domain/not-found';
import { presentWork } from '../domain/work-lifecycle';
import { applyMetadataPatch } from '@shared/metadata/apply-metadata-patch';
import type { RuntimeDeps } from '../deps';

/** Metadata only, merged (a null removes a key). */
export const updateWork =
  (deps: RuntimeDeps): Handler<typeof workSubjects.update> =>
  async ({ environment_id, work_id, metadata }, ctx) => {
    const tenant = tenantOf(ctx);
    const row = await retryTransient(() =>
      deps.db.transaction(async (tx) => {
        const item = found(await findWorkItem(tx, tenant, environment_id, work_id, { lock: true }), () => workNotFound(work_id));
        return updateWorkItem(tx, item, { metadata: applyMetadataPatch(item.metadata, metadata) });
      }),
    );
    return presentWork(row);
  };
