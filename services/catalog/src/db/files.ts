import { and, eq } from 'drizzle-orm';
import type { Executor, ReadOptions } from '@shared/db/executor';
import { findOwnedRow } from '@shared/db/find-owned-row';
import { readNewestFirstPage } from '@shared/db/newest-first-page';
import { ownedBy } from '@shared/db/owned-by';
import type { PagePosition } from '@shared/schema/common';
import type { Tenant } from '@shared/schema/tenant';
import { fileChunks, files, type FileRow } from './schema';

export const findFile = (db: Executor, tenant: Tenant, id: string, options?: ReadOptions) =>
  findOwnedRow(db, files, tenant, id, options);

/** The metadata row and every chunk, one INSERT each, in the caller's transaction. */
export async function insertFile(tx: Executor, row: FileRow, chunks: Buffer[]): Promise<void> {
  await tx.insert(files).values(row);
  for (const [seq, data] of chunks.entries()) {
    await tx.insert(fileChunks).values({ fileId: row.id, seq, data });
  }
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

/** The chunks, then the metadata row. */
export async function deleteFile(tx: Executor, id: string): Promise<void> {
  await tx.delete(fileChunks).where(eq(fileChunks.fileId, id));
  await tx.delete(files).where(eq(files.id, id));
}

export const listFilePage = <T>(
  db: Executor,
  tenant: Tenant,
  request: { limit: number; after: PagePosition | null },
  present: (row: FileRow) => T,
) => readNewestFirstPage(db, files, [ownedBy(files, tenant)], request, present);
