import { Type, type Static } from '@sinclair/typebox';
import { defineEvent } from '../bus/event';
import { Closed, IdParam, ListReply, ListRequest, Timestamp } from './common';
import { Deleted, IdRequest } from './resource-shapes';

/** The file resource (SDK `BetaFileMetadata`): uploaded bytes, stored by the catalog. */

export const FileName = Type.String({ minLength: 1, maxLength: 255 });
export const MimeType = Type.String({ minLength: 1, maxLength: 255 });

export const FileMetadata = Closed({
  type: Type.Literal('file'),
  id: Type.String(),
  filename: Type.String(),
  mime_type: Type.String(),
  size_bytes: Type.Integer({ minimum: 0 }),
  created_at: Timestamp,
  downloadable: Type.Boolean(),
});
export type FileMetadata = Static<typeof FileMetadata>;

export const FileDeleted = Deleted('file_deleted');

/** Contents travel base64 on the bus; large requests are offloaded by the payload codec. */
export const UploadFileRequest = Closed({ filename: FileName, mime_type: MimeType, content_base64: Type.String() });
export type UploadFileRequest = Static<typeof UploadFileRequest>;

export const FileContent = Closed({ filename: Type.String(), mime_type: Type.String(), content_base64: Type.String() });
export type FileContent = Static<typeof FileContent>;

export const FileListFilters = Closed({});
export type FileListFilters = Static<typeof FileListFilters>;

export const FileIdRequest = IdRequest('file_id', 'file');
export const FileListRequest = ListRequest(FileListFilters);
export const FileListReply = ListReply(FileMetadata);

export const FileEventPayload = Closed({ file_id: IdParam });
export const fileEvents = {
  deleted: defineEvent('catalog', 'catalog.file.deleted', FileEventPayload),
};
