import { found, invalidRequest } from '@shared/errors/api-error';
import type { AgentSkill } from '@shared/schema/agent-tools';
import { LATEST } from '@shared/schema/skill';
import type { Executor, ReadOptions } from '@shared/db/executor';
import type { TenantIds } from '@shared/schema/tenant';
import type { SkillRow } from '../db/schema';
import { findSkill, findSkills, findSkillVersion, findSkillVersions, type SkillVersionInfo } from '../db/skills';
import { skillNotFound, skillVersionNotFound } from '../domain/not-found';
import { versionIdOf } from '../domain/skill';

/**
 * The lookups the skill and agent handlers share (helpers, not use cases): the caller's skill, or 404; a
 * version of it by id or `latest`, or 404 naming what was asked.
 */
export const skillOf = async (db: Executor, tenant: TenantIds, skillId: string, options?: ReadOptions): Promise<SkillRow> =>
  found(await findSkill(db, tenant, skillId, options), () => skillNotFound(skillId));

export async function skillVersionOf(db: Executor, tenant: TenantIds, skillId: string, version: string, options?: ReadOptions): Promise<{ skill: SkillRow; version: SkillVersionInfo }> {
  const skill = await skillOf(db, tenant, skillId, options);
  const row = found(await findSkillVersion(db, tenant, skillId, versionIdOf(skill, version)), () => skillVersionNotFound(version));
  return { skill, version: row };
}

/**
 * An agent's custom skills exist in the caller's workspace, each at the version it names (`latest`
 * or one of that skill's versions): else 400 naming `skills.N.skill_id` or `skills.N.version`.
 * Anthropic's skills (`xlsx`, `pdf`) are not stored here and pass as they are.
 */
export async function checkAgentSkills(db: Executor, tenant: TenantIds, skills: readonly AgentSkill[]): Promise<void> {
  const custom = skills.flatMap((s, i) => (s.type === 'custom' ? [{ ...s, at: i }] : []));
  if (custom.length === 0) return;
  const stored = new Map((await findSkills(db, tenant, custom.map((s) => s.skill_id))).map((s) => [s.id, s]));
  const pinned = custom.filter((s) => s.version !== LATEST).map((s) => s.version);
  const versions = new Map((await findSkillVersions(db, tenant, pinned)).map((v) => [v.id, v.skillId]));
  for (const s of custom) {
    if (!stored.has(s.skill_id)) throw invalidRequest(`skills.${s.at}.skill_id: skill '${s.skill_id}' not found`);
    if (s.version !== LATEST && versions.get(s.version) !== s.skill_id) {
      throw invalidRequest(`skills.${s.at}.version: version '${s.version}' of skill '${s.skill_id}' not found`);
    }
  }
}
