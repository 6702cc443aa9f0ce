import { createHash } from 'node:crypto';

/** Hex SHA-256 of a token: how the runtime names the access token it saw refused without sending it back. */
export const tokenDigest = (token: string): string => createHash('sha256').update(token).digest('hex');
