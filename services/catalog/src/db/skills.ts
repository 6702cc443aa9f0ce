import { and, desc, eq, inArray, type SQL } from 'drizzle-orm';
import type { Executor, ReadOptions } from '@shared/db/executor';
import { findOwnedRow } from '@shared/db/find-owned-row';
import { keysetAfter, newestFirst, readPage, type TenantPageReader } from '@shared/db/keyset-page';
import { readNewestFirstPage } from '@shared/db/newest-first-page';
import { ownedBy } from '@shared/db/owned-by';
import type { PagePosition } from '@shared/schema/common';
import type { SkillListFilters, SkillVersionListFilters } from '@shared/schema/skill';
import type { TenantIds } from '@shared/schema/tenant';
import { skills, skillVersions, type SkillRow, type SkillVersionRow } from './schema';

/** A version as listed and shown: everything but its archive, which only a download reads. */
export type SkillVersionInfo = Omit<SkillVersionRow, 'archive'>;
const versionInfo = {
  id: skillVersions.id,
  organizationId: skillVersions.organizationId,
  workspaceId: skillVersions.workspaceId,
  skillId: skillVersions.skillId,
  name: skillVersions.name,
  description: skillVersions.description,
  createdAt: skillVersions.createdAt,
};

export const findSkill = (db: Executor, tenant: TenantIds, id: string, options?: ReadOptions) => findOwnedRow(db, skills, tenant, id, options);

/** A new skill with its first version, in the caller's transaction. */
export async function insertSkill(tx: Executor, skill: SkillRow, version: SkillVersionRow): Promise<void> {
  await tx.insert(skillVersions).values(version);
  await tx.insert(skills).values(skill);
}

/** A new version, which becomes the skill's latest. */
export async function insertSkillVersion(tx: Executor, version: SkillVersionRow): Promise<void> {
  await tx.insert(skillVersions).values(version);
  await tx.update(skills).set({ latestVersionId: version.id, updatedAt: version.createdAt }).where(eq(skills.id, version.skillId));
}

/** The tenant's version of a skill, without its archive. */
export async function findSkillVersion(db: Executor, tenant: TenantIds, skillId: string, versionId: string): Promise<SkillVersionInfo | undefined> {
  const [row] = await db
    .select(versionInfo)
    .from(skillVersions)
    .where(and(eq(skillVersions.id, versionId), eq(skillVersions.skillId, skillId), ownedBy(skillVersions, tenant)));
  return row;
}

export async function readSkillArchive(db: Executor, versionId: string): Promise<Buffer | undefined> {
  const [row] = await db.select({ archive: skillVersions.archive }).from(skillVersions).where(eq(skillVersions.id, versionId));
  return row?.archive;
}

/** The newest versions of a skill, at most `count` (the one after the latest, when it is deleted). */
export const newestSkillVersions = (db: Executor, skillId: string, count: number) =>
  db.select(versionInfo).from(skillVersions).where(eq(skillVersions.skillId, skillId)).orderBy(...newestFirst(skillVersions)).limit(count);

export async function deleteSkillVersion(tx: Executor, version: SkillVersionInfo, nextLatest: string | null, now: Date): Promise<void> {
  await tx.delete(skillVersions).where(eq(skillVersions.id, version.id));
  if (nextLatest) await tx.update(skills).set({ latestVersionId: nextLatest, updatedAt: now }).where(eq(skills.id, version.skillId));
}

/** The skill and all of its versions. */
export async function deleteSkill(tx: Executor, skillId: string): Promise<void> {
  await tx.delete(skillVersions).where(eq(skillVersions.skillId, skillId));
  await tx.delete(skills).where(eq(skills.id, skillId));
}

/** One page of the tenant's skills, newest first; every stored skill is `custom`, so any other source lists nothing. */
export const listSkillPage: TenantPageReader<SkillListFilters, SkillRow> = (db, tenant, request, present) => {
  const none: SQL | undefined = request.filters.source !== null && request.filters.source !== 'custom' ? eq(skills.id, '') : undefined;
  return readNewestFirstPage(db, skills, [ownedBy(skills, tenant), none], request, present);
};

/** One page of a skill's versions, newest first, without their archives. */
export const listSkillVersionPage: TenantPageReader<SkillVersionListFilters, SkillVersionInfo> = (db, tenant, request, present) => {
  const readChunk = (from: PagePosition | null, count: number) =>
    db
      .select(versionInfo)
      .from(skillVersions)
      .where(and(eq(skillVersions.skillId, request.filters.skill_id), ownedBy(skillVersions, tenant), keysetAfter(skillVersions, from)))
      .orderBy(desc(skillVersions.createdAt), desc(skillVersions.id))
      .limit(count);
  return readPage(readChunk, request.after, request.limit, present);
};

/** The tenant's skills among `ids`, with their latest version ids (the checks of an agent's `skills`). */
export async function findSkills(db: Executor, tenant: TenantIds, ids: string[]): Promise<SkillRow[]> {
  if (ids.length === 0) return [];
  return db.select().from(skills).where(and(ownedBy(skills, tenant), inArray(skills.id, [...new Set(ids)])));
}

/** The tenant's versions among `ids` (without archives). */
export async function findSkillVersions(db: Executor, tenant: TenantIds, ids: string[]): Promise<SkillVersionInfo[]> {
  if (ids.length === 0) return [];
  return db.select(versionInfo).from(skillVersions).where(and(ownedBy(skillVersions, tenant), inArray(skillVersions.id, [...new Set(ids)])));
}
