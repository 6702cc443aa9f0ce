import { and, eq } from 'drizzle-orm';
import type { PagePosition } from '@shared/schema/common';
import type { FileMetadata } from '@shared/schema/file';
import { keysetAfter, newestFirst, readPage } from '@shared/db/keyset-page';
import { fileChunks, files } from './schema';
import { ownedBy, type Executor, type TenantScope } from './scope';

export type FileRow = typeof files.$inferSelect;

export function presentFile(row: FileRow): FileMetadata {
  return {
    type: 'file',
    id: row.id,
    filename: row.filename,
    mime_type: row.mimeType,
    size_bytes: row.sizeBytes,
    created_at: row.createdAt.toISOString(),
    downloadable: true,
  };
}

/** The metadata row and every chunk, one INSERT each, in the caller's transaction. */
export async function insertFile(
  tx: Executor,
  input: { id: string; tenant: TenantScope; filename: string; mimeType: string; chunks: Buffer[]; sizeBytes: number; now: Date },
): Promise<FileRow> {
  const row: FileRow = {
    id: input.id,
    organizationId: input.tenant.organization_id,
    workspaceId: input.tenant.workspace_id,
    filename: input.filename,
    mimeType: input.mimeType,
    sizeBytes: input.sizeBytes,
    chunkCount: input.chunks.length,
    createdAt: input.now,
  };
  await tx.insert(files).values(row);
  for (const [seq, data] of input.chunks.entries()) {
    await tx.insert(fileChunks).values({ fileId: input.id, seq, data });
  }
  return row;
}

export async function findFile(db: Executor, tenant: TenantScope, id: string, options: { lock?: boolean } = {}) {
  const query = db
    .select()
    .from(files)
    .where(and(eq(files.id, id), ownedBy(files, tenant)));
  const [row] = options.lock ? await query.for('update') : await query;
  return row;
}

/** Reads chunk by chunk, so no single result set holds the whole file twice. */
export async function readFileContent(db: Executor, file: FileRow): Promise<Buffer> {
  const parts: Buffer[] = [];
  for (let seq = 0; seq < file.chunkCount; seq++) {
    const [chunk] = await db
      .select({ data: fileChunks.data })
      .from(fileChunks)
      .where(and(eq(fileChunks.fileId, file.id), eq(fileChunks.seq, seq)));
    if (!chunk) throw new Error(`file ${file.id} is missing chunk ${seq}`);
    parts.push(Buffer.from(chunk.data));
  }
  return Buffer.concat(parts);
}

export async function deleteFileRows(tx: Executor, id: string): Promise<void> {
  await tx.delete(fileChunks).where(eq(fileChunks.fileId, id));
  await tx.delete(files).where(eq(files.id, id));
}

export async function listFiles(db: Executor, tenant: TenantScope, request: { limit: number; after: PagePosition | null }) {
  const readChunk = (from: PagePosition | null, count: number) =>
    db
      .select()
      .from(files)
      .where(and(ownedBy(files, tenant), keysetAfter(files, from)))
      .orderBy(...newestFirst(files))
      .limit(count);
  return readPage(readChunk, request.after, request.limit, presentFile);
}
