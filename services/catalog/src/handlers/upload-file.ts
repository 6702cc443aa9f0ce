import type { Handler } from '@shared/bus/bus-server';
import type { fileSubjects } from '@shared/bus/subjects/catalog';
import { invalidRequest } from '@shared/errors/api-error';
import { newId } from '@shared/ids/ids';
import { requireTenant, type CatalogDeps } from '../catalog-deps';
import { insertFile, presentFile } from '../db/files';
import { decodeBase64, splitIntoChunks } from '../domain/file-chunks';

type S = typeof fileSubjects.upload;
/** The gateway enforces the same size limit first; this holds for any other caller. */
export const uploadFile =
  (deps: CatalogDeps): Handler<S> =>
  async ({ filename, mime_type, content_base64 }, ctx) => {
    const tenant = requireTenant(ctx);
    const content = decodeBase64(content_base64);
    if (!content) throw invalidRequest('content_base64: must be base64');
    if (content.length > deps.fileMaxBytes) {
      throw invalidRequest(`file: larger than the ${deps.fileMaxBytes}-byte limit`, 413);
    }
    const row = await deps.db.transaction((tx) =>
      insertFile(tx, {
        id: newId('file'),
        tenant,
        filename,
        mimeType: mime_type,
        chunks: splitIntoChunks(content),
        sizeBytes: content.length,
        now: deps.clock.now(),
      }),
    );
    return presentFile(row);
  };
