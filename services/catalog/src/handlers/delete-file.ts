import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { fileSubjects } from '@shared/bus/subjects/catalog';
import { fileEvents } from '@shared/schema/file';
import { deleteOwnedRow } from '../db/archive-and-delete';
import { deleteFile as deleteFileRows } from '../db/files';
import { files } from '../db/schema';
import { fileNotFound } from '../domain/not-found';
import type { CatalogDeps } from '../deps';

type S = typeof fileSubjects.delete;
export const deleteFile =
  (deps: CatalogDeps): Handler<S> =>
  async ({ file_id: id }, ctx) => {
    const announce = { event: fileEvents.deleted, data: { file_id: id } };
    const deleted = await deleteOwnedRow(deps, files, tenantOf(ctx), id, deleteFileRows, announce);
    if (!deleted) throw fileNotFound(id);
    return { type: 'file_deleted' as const, id };
  };
