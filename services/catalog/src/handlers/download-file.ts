import type { Handler } from '@shared/bus/bus-server';
import type { fileSubjects } from '@shared/bus/subjects/catalog';
import { notFound } from '@shared/errors/api-error';
import { requireTenant, type CatalogDeps } from '../catalog-deps';
import { findFile, readFileContent } from '../db/files';

type S = typeof fileSubjects.download;
export const downloadFile =
  (deps: CatalogDeps): Handler<S> =>
  async ({ file_id: id }, ctx) => {
    const row = await findFile(deps.db, requireTenant(ctx), id);
    if (!row) throw notFound(`file ${id} not found`);
    const content = await readFileContent(deps.db, row);
    return { filename: row.filename, mime_type: row.mimeType, content_base64: content.toString('base64') };
  };
