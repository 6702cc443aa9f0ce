import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { fileSubjects } from '@shared/bus/subjects/catalog';
import { invalidRequest } from '@shared/errors/api-error';
import { newId } from '@shared/ids/ids';
import { insertFile } from '../db/files';
import type { FileRow } from '../db/schema';
import { decodeBase64, splitIntoChunks } from '../domain/file-chunks';
import { presentFile } from '../domain/present';
import type { CatalogDeps } from '../deps';

type S = typeof fileSubjects.upload;
/** The gateway enforces the same size limit first; this holds for any other caller. */
export const uploadFile =
  (deps: CatalogDeps): Handler<S> =>
  async ({ filename, mime_type, content_base64 }, ctx) => {
    const tenant = tenantOf(ctx);
    const content = decodeBase64(content_base64);
    if (!content) throw invalidRequest('content_base64: must be base64');
    if (content.length > deps.fileMaxBytes) {
      throw invalidRequest(`file: larger than the ${deps.fileMaxBytes}-byte limit`, 413);
    }
    const chunks = splitIntoChunks(content);
    const row: FileRow = {
      id: newId('file'),
      organizationId: tenant.organization_id,
      workspaceId: tenant.workspace_id,
      filename,
      mimeType: mime_type,
      sizeBytes: content.length,
      chunkCount: chunks.length,
      createdAt: deps.clock.now(),
    };
    await deps.db.transaction((tx) => insertFile(tx, row, chunks));
    return presentFile(row);
  };
