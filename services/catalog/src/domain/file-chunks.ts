/**
 * Contents are stored in pieces this size, one row per INSERT, so no statement comes near
 * MariaDB's or MySQL's max_allowed_packet (16 MiB / 64 MiB defaults) whatever the file size.
 */
export const FILE_CHUNK_BYTES = 512 * 1024;

export function splitIntoChunks(content: Buffer, chunkBytes = FILE_CHUNK_BYTES): Buffer[] {
  const chunks: Buffer[] = [];
  for (let offset = 0; offset < content.length; offset += chunkBytes) {
    chunks.push(content.subarray(offset, offset + chunkBytes));
  }
  return chunks;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Strict base64: Buffer.from would silently skip invalid characters. */
export function decodeBase64(text: string): Buffer | undefined {
  if (text.length % 4 !== 0 || !BASE64.test(text)) return undefined;
  return Buffer.from(text, 'base64');
}
