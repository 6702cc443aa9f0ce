import { Elysia } from 'elysia';
import { fileSubjects } from '@shared/bus/subjects/catalog';
import { emptyBody } from '../../http/raw-body';
import type { GatewayDeps } from '../../routing/gateway-deps';
import { createGuard } from '../../routing/guard';
import { checkPathIds } from '../../routing/path-id';
import { servePage } from '../../routing/pagination';
import { contentDisposition, fileListRoute, readUpload } from './model';

/**
 * File contents cross the bus through the object store (payloads over ~1 MiB), which takes
 * longer than an ordinary call; uploads and downloads get this many plain-call timeouts.
 */
export const TRANSFER_TIMEOUT_FACTOR = 6;

/** /v1/files: uploaded files, stored by the catalog service. */
export const filesModule = (deps: GatewayDeps) => {
  const transfer = { timeoutMs: deps.config.BUS_TIMEOUT_MS * TRANSFER_TIMEOUT_FACTOR };
  return new Elysia({ name: 'module-files' })
    .use(createGuard(deps))
    .onBeforeHandle(checkPathIds)
    .post('/v1/files', async ({ call, body }) => {
      const upload = await readUpload(body, deps.config.FILE_MAX_BYTES);
      return deps.bus.call(fileSubjects.upload, call, upload, transfer);
    })
    .get('/v1/files', ({ call, url }) =>
      servePage(fileListRoute, { bus: deps.bus, cursorKey: deps.config.cursorKey }, call, url),
    )
    .get('/v1/files/:file_id', ({ call, params }) => {
      return deps.bus.call(fileSubjects.get, call, { file_id: params.file_id });
    })
    .get('/v1/files/:file_id/content', async ({ call, params }) => {
      const file = await deps.bus.call(fileSubjects.download, call, { file_id: params.file_id }, transfer);
      return new Response(Buffer.from(file.content_base64, 'base64'), {
        headers: { 'content-type': file.mime_type, 'content-disposition': contentDisposition(file.filename) },
      });
    })
    .delete('/v1/files/:file_id', ({ call, params, body }) => {
      emptyBody(body);
      return deps.bus.call(fileSubjects.delete, call, { file_id: params.file_id });
    });
};
