import { and, asc, eq, lte } from 'drizzle-orm';
import type { Database } from '@shared/db/connect';
import { isDuplicateKey } from '@shared/db/duplicate-key';
import { idempotencyKeys } from './schema';

export type IdempotencyKeyRow = typeof idempotencyKeys.$inferSelect;

/** Where a key's row is: its tenant and the key's hash. */
export interface IdempotencyKeyAddress {
  organizationId: string;
  workspaceId: string;
  keyHash: string;
}

/** A request holding a key: the row it wrote, and what it must still record or release. */
export interface IdempotencyClaim extends IdempotencyKeyAddress {
  claimId: string;
}

export interface NewIdempotencyClaim extends IdempotencyClaim {
  requestHash: string;
  createdAt: Date;
  lockedUntil: Date;
}

export interface IdempotentAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const rowOf = (address: IdempotencyKeyAddress) =>
  and(
    eq(idempotencyKeys.organizationId, address.organizationId),
    eq(idempotencyKeys.workspaceId, address.workspaceId),
    eq(idempotencyKeys.keyHash, address.keyHash),
  );
const claimedBy = (claim: IdempotencyClaim) => and(rowOf(claim), eq(idempotencyKeys.claimId, claim.claimId));
const affected = (result: unknown) => (result as [{ affectedRows: number }])[0].affectedRows;

/** The key's first request: true when it now holds the key, false when the key already has a row. */
export async function insertIdempotencyClaim(db: Database, claim: NewIdempotencyClaim): Promise<boolean> {
  try {
    await db.insert(idempotencyKeys).values({ ...claim, status: null, responseHeaders: null, responseBody: null });
    return true;
  } catch (err) {
    if (isDuplicateKey(err)) return false;
    throw err;
  }
}

export async function findIdempotencyKey(db: Database, address: IdempotencyKeyAddress): Promise<IdempotencyKeyRow | undefined> {
  const [row] = await db.select().from(idempotencyKeys).where(rowOf(address)).limit(1);
  return row;
}

/**
 * A new request takes a key whose row expired or whose request's process is gone: true when it
 * did, false when another request took it first (the row is no longer `previousClaimId`'s).
 */
export async function takeOverIdempotencyKey(db: Database, claim: NewIdempotencyClaim, previousClaimId: string): Promise<boolean> {
  const result = await db
    .update(idempotencyKeys)
    .set({
      requestHash: claim.requestHash,
      claimId: claim.claimId,
      status: null,
      responseHeaders: null,
      responseBody: null,
      createdAt: claim.createdAt,
      lockedUntil: claim.lockedUntil,
    })
    .where(and(rowOf(claim), eq(idempotencyKeys.claimId, previousClaimId)));
  return affected(result) === 1;
}

/** The answer retries will get; only the request that holds the key records it. */
export async function recordIdempotentAnswer(db: Database, claim: IdempotencyClaim, answer: IdempotentAnswer): Promise<void> {
  await db
    .update(idempotencyKeys)
    .set({ status: answer.status, responseHeaders: JSON.stringify(answer.headers), responseBody: answer.body })
    .where(claimedBy(claim));
}

/** Gives the key up (an answer that is not kept): the next request with it runs. */
export async function releaseIdempotencyKey(db: Database, claim: IdempotencyClaim): Promise<void> {
  await db.delete(idempotencyKeys).where(claimedBy(claim));
}

/** Deletes up to `limit` rows created at or before `before`, oldest first; returns how many. */
export async function deleteExpiredIdempotencyKeys(db: Database, before: Date, limit: number): Promise<number> {
  const result = await db
    .delete(idempotencyKeys)
    .where(lte(idempotencyKeys.createdAt, before))
    .orderBy(asc(idempotencyKeys.createdAt))
    .limit(limit);
  return affected(result);
}
