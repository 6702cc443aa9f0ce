import { hasErrno } from '../errors/cause-chain';

/** MySQL and MariaDB both report a unique-key collision as errno 1062 (ER_DUP_ENTRY). */
const DUPLICATE_KEY = new Set([1062]);

/** Whether a failed statement collided with a row that already holds its unique key. */
export const isDuplicateKey = (err: unknown): boolean => hasErrno(err, DUPLICATE_KEY);
