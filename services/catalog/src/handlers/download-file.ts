import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import { found } from '@shared/errors/api-error';
import type { fileSubjects } from '@shared/bus/subjects/catalog';
import { findFile, readFileContent } from '../db/files';
import { fileNotFound } from '../domain/not-found';
import type { CatalogDeps } from '../deps';

type S = typeof fileSubjects.download;
export const downloadFile =
  (deps: CatalogDeps): Handler<S> =>
  async ({ file_id: id }, ctx) => {
    const row = found(await findFile(deps.db, tenantOf(ctx), id), () => fileNotFound(id));
    const content = await readFileContent(deps.db, row);
    return { filename: row.filename, mime_type: row.mimeType, content_base64: content.toString('base64') };
  };
