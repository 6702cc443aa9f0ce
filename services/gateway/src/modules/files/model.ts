import { Type } from '@sinclair/typebox';
import { fileSubjects } from '@shared/bus/subjects/catalog';
import { invalidRequest } from '@shared/errors/api-error';
import type { UploadFileRequest } from '@shared/schema/file';
import type { RawBody } from '../../http/raw-body';
import { pagedQuery, pageRoute } from '../../routing/pagination';
import type { Media } from '../../routing/route-contract';

export const fileListRoute = pageRoute({
  endpoint: 'files.list',
  query: pagedQuery({}),
  subject: fileSubjects.list,
  toFilters: () => ({}),
});

const UPLOAD_FIELDS = new Set(['file']);
const FILENAME_MAX = 255;

/** The upload as the document shows it: what readUpload accepts. */
export const UploadForm: Media = {
  mediaType: 'multipart/form-data',
  schema: Type.Object(
    {
      file: Type.String({
        contentMediaType: 'application/octet-stream',
        description:
          `The file, once, with a filename of 1 to ${FILENAME_MAX} characters; its part's content type ` +
          "becomes the file's mime_type (application/octet-stream when none).",
      }),
    },
    { additionalProperties: false },
  ),
};

/** A file's bytes as downloaded, under the content type it was uploaded with. */
export const FileBytes: Media = {
  mediaType: '*/*',
  schema: Type.String({ contentMediaType: 'application/octet-stream', description: 'The bytes, with the mime_type of the file as content-type.' }),
};

/**
 * The multipart upload as the catalog receives it. The guard read the body (after the key was
 * checked, within FILE_MAX_BYTES plus the form's overhead); it is parsed here, so a malformed
 * form is a 400 only for a caller who got that far. Only the `file` field is accepted, once,
 * and within the size limit.
 */
export async function readUpload(raw: RawBody | undefined, maxBytes: number): Promise<UploadFileRequest> {
  if (!raw || !/^multipart\/form-data\s*;/i.test(raw.contentType)) {
    throw invalidRequest('content-type: must be multipart/form-data with a `file` field');
  }
  let form: Awaited<ReturnType<Response['formData']>>;
  try {
    form = await new Response(raw.bytes, { headers: { 'content-type': raw.contentType } }).formData();
  } catch {
    throw invalidRequest('body: malformed multipart/form-data');
  }
  const fields: Record<string, unknown> = Object.create(null);
  for (const name of new Set(form.keys())) {
    if (!UPLOAD_FIELDS.has(name)) throw invalidRequest(`${name}: unknown field`);
    const values = form.getAll(name);
    fields[name] = values.length === 1 ? values[0] : values;
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
