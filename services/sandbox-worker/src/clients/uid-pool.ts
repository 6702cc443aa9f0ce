import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { processAlive } from './process-control';

/**
 * Each session gets a user of its own (SANDBOX_UID_BASE and up), so that no two sessions, nor a
 * session and the worker, share a uid: RLIMIT_NPROC then counts one session's processes, and a
 * file one session leaves behind is nobody else's. Every worker on the machine takes uids from
 * the same directory of leases (`<SANDBOX_ROOT>/.uids/<uid>`, made with mkdir, which one caller
 * alone wins); a lease whose worker process is gone is taken over.
 */
export interface UidLease {
  uid: number;
  release(): Promise<void>;
}

/** How many uids the pool spans at most: far more than the sessions one machine runs at once. */
export const POOL_SIZE = 65_536;

/** The uids a session may get: from SANDBOX_UID_BASE, as many as POOL_SIZE or as this process's user namespace maps. */
export interface UidPool {
  base: number;
  size: number;
}

export async function leaseUid(root: string, pool: UidPool, start = Math.floor(Math.random() * pool.size)): Promise<UidLease> {
  const { base, size } = pool;
  const dir = join(root, '.uids');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  for (let step = 0; step < size; step++) {
    const uid = base + ((start + step) % size);
    const lease = join(dir, String(uid));
    if (await take(lease)) return { uid, release: () => rm(lease, { recursive: true, force: true }) };
  }
  throw new Error(`no free uid between ${base} and ${base + size - 1}`);
}

async function take(lease: string): Promise<boolean> {
  try {
    await mkdir(lease);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    const owner = Number(await readFile(join(lease, 'owner'), 'utf8').catch(() => 'NaN'));
    // A lease just made has no owner yet: its maker is writing it.
    if (!Number.isInteger(owner) || processAlive(owner)) return false;
    await rm(lease, { recursive: true, force: true });
    return take(lease);
  }
  await writeFile(join(lease, 'owner'), String(process.pid));
  return true;
}
