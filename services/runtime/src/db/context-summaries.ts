import { and, eq, ne } from 'drizzle-orm';
import type { Executor } from '@shared/db/executor';
import { ownedBy } from '@shared/db/owned-by';
import type { TenantIds } from '@shared/schema/tenant';
import { contextSummaries } from './schema';

/** Where a summary belongs: the session, and the span of the summary turn that wrote it. */
export interface SummarySpan {
  owner: TenantIds;
  sessionId: string;
  spanStartId: string;
}

/** Records a summary turn's summary; the same span summarized again (a retried step) replaces it. */
export async function saveContextSummary(db: Executor, at: SummarySpan, summary: string, now: Date): Promise<void> {
  await db
    .insert(contextSummaries)
    .values({ organizationId: at.owner.organization_id, workspaceId: at.owner.workspace_id, sessionId: at.sessionId, spanStartId: at.spanStartId, summary, createdAt: now })
    .onDuplicateKeyUpdate({ set: { summary, createdAt: now } });
}

export async function findContextSummary(db: Executor, at: SummarySpan): Promise<string | undefined> {
  const [row] = await db
    .select({ summary: contextSummaries.summary })
    .from(contextSummaries)
    .where(and(ownedBy(contextSummaries, at.owner), eq(contextSummaries.sessionId, at.sessionId), eq(contextSummaries.spanStartId, at.spanStartId)));
  return row?.summary;
}

/** Forgets the session's summaries but this one: the latest covers the earlier ones, and a summary whose compaction was never recorded is no one's. */
export async function forgetOtherSummaries(db: Executor, at: SummarySpan): Promise<void> {
  await db
    .delete(contextSummaries)
    .where(and(ownedBy(contextSummaries, at.owner), eq(contextSummaries.sessionId, at.sessionId), ne(contextSummaries.spanStartId, at.spanStartId)));
}

/** A deleted session's summaries go with its log. */
export async function forgetSessionSummaries(db: Executor, owner: TenantIds, sessionId: string): Promise<void> {
  await db.delete(contextSummaries).where(and(ownedBy(contextSummaries, owner), eq(contextSummaries.sessionId, sessionId)));
}
