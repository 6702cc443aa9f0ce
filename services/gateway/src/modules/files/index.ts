import { fileSubjects } from '@shared/bus/subjects/catalog';
import { servePage } from '../../routing/pagination';
import { resourceModule } from '../../routing/resource-module';
import { route } from '../../routing/route';
import type { GatewayDeps } from '../../deps';
import { contentDisposition, FileBytes, fileListRoute, fileNotDownloadable, readUpload, UploadForm } from './model';

/**
 * File contents cross the bus through the object store (payloads over ~1 MiB), which takes
 * longer than an ordinary call; uploads and downloads get this many plain-call timeouts.
 */
export const TRANSFER_TIMEOUT_FACTOR = 6;

/** /v1/files: uploaded files, stored by the catalog service. */
export const filesModule = (deps: GatewayDeps) => {
  const transfer = { timeoutMs: deps.config.BUS_TIMEOUT_MS * TRANSFER_TIMEOUT_FACTOR };
  const upload = { media: UploadForm, read: (raw: Parameters<typeof readUpload>[0]) => readUpload(raw, deps.config.FILE_MAX_BYTES) };
  return resourceModule('files', deps, [
    route.post('/v1/files', { body: upload, reply: fileSubjects.upload.reply }, ({ call, body }) =>
      deps.bus.call(fileSubjects.upload, call, body, transfer),
    ),
    route.list('/v1/files', servePage(fileListRoute, deps)),
    route.get('/v1/files/:file_id', { reply: fileSubjects.get.reply }, ({ call, params }) => deps.bus.call(fileSubjects.get, call, params)),
    route.get('/v1/files/:file_id/content', { reply: FileBytes }, async ({ call, params }) => {
      // The file's own `downloadable` decides (SDK FileNotDownloadableError: 400); asked first,
      // so a refused file's bytes never cross the bus. The bus read itself stays open to the
      // product's services (the runtime reads rubric files through it).
      const metadata = await deps.bus.call(fileSubjects.get, call, params);
      if (!metadata.downloadable) throw fileNotDownloadable(metadata.id);
      const file = await deps.bus.call(fileSubjects.download, call, params, transfer);
      return new Response(Buffer.from(file.content_base64, 'base64'), {
        headers: { 'content-type': file.mime_type, 'content-disposition': contentDisposition(file.filename) },
      });
    }),
    route.delete('/v1/files/:file_id', { reply: fileSubjects.delete.reply }, ({ call, params }) =>
      deps.bus.call(fileSubjects.delete, call, params),
    ),
  ]);
};
