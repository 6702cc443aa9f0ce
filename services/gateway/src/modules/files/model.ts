import { catalogSubjects } from '../../../../../shared/bus/subjects/catalog';
import { invalidRequest } from '../../../../../shared/errors/api-error';
import { FileListFilters, FileMetadata, type UploadFileRequest } from '../../../../../shared/schema/file';
import { RawBody } from '../../http/raw-body';
import { pagedQuery, type PageRoute } from '../../routing/pagination';

export const FileListQuery = pagedQuery({});

export const fileListRoute: PageRoute<typeof FileListQuery, typeof FileListFilters, typeof FileMetadata> = {
  endpoint: 'files.list',
  query: FileListQuery,
  subject: catalogSubjects.listFiles,
  toFilters: (): FileListFilters => ({}),
};

const UPLOAD_FIELDS = new Set(['file']);
const FILENAME_MAX = 255;

/**
 * The multipart upload as the catalog receives it. Elysia has parsed the form (the guard leaves
 * multipart bodies to it); only the `file` field is accepted, once, and within the size limit.
 */
export async function readUpload(body: unknown, maxBytes: number): Promise<UploadFileRequest> {
  if (body === undefined || body === null || body instanceof RawBody || typeof body !== 'object') {
    throw invalidRequest('content-type: must be multipart/form-data with a `file` field');
  }
  const fields = body as Record<string, unknown>;
  for (const name of Object.keys(fields)) {
    if (!UPLOAD_FIELDS.has(name)) throw invalidRequest(`${name}: unknown field`);
  }
  const file = fields.file;
  if (file === undefined) throw invalidRequest('file: is required');
  if (Array.isArray(file)) throw invalidRequest('file: must be given once');
  if (!(file instanceof Blob)) throw invalidRequest('file: must be a file upload');
  if (file.size > maxBytes) throw invalidRequest(`file: larger than the ${maxBytes}-byte limit`, 413);
  const filename = file instanceof File ? file.name : '';
  if (!filename) throw invalidRequest('file: a filename is required');
  if (filename.length > FILENAME_MAX) throw invalidRequest(`file: filename must be at most ${FILENAME_MAX} characters`);
  const content = Buffer.from(await file.arrayBuffer());
  return {
    filename,
    mime_type: file.type || 'application/octet-stream',
    content_base64: content.toString('base64'),
  };
}

/** RFC 6266 filename parameter: an ASCII fallback plus the exact name in UTF-8. */
export function contentDisposition(filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}
