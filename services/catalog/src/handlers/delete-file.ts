import type { Handler } from '@shared/bus/bus-server';
import { recordEvent } from '@shared/bus/outbox';
import type { fileSubjects } from '@shared/bus/subjects/catalog';
import { notFound } from '@shared/errors/api-error';
import { fileEvents } from '@shared/schema/file';
import { requireTenant, type CatalogDeps } from '../catalog-deps';
import { deleteFileRows, findFile } from '../db/files';
import { outbox } from '../db/schema';

type S = typeof fileSubjects.delete;
export const deleteFile =
  (deps: CatalogDeps): Handler<S> =>
  async ({ file_id: id }, ctx) => {
    const tenant = requireTenant(ctx);
    await deps.db.transaction(async (tx) => {
      const current = await findFile(tx, tenant, id, { lock: true });
      if (!current) throw notFound(`file ${id} not found`);
      await deleteFileRows(tx, id);
      await recordEvent(tx, outbox, fileEvents.deleted, tenant, { file_id: id }, deps.clock.now());
    });
    deps.eventsRecorded();
    return { type: 'file_deleted' as const, id };
  };
