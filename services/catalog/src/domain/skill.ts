import { LATEST, type Skill, type SkillVersion } from '@shared/schema/skill';
import type { SkillRow } from '../db/schema';
import type { SkillVersionInfo } from '../db/skills';

/** Uploaded skills are the user's own (SDK source `custom`). */
const CUSTOM = { type: 'custom' as const };

export const presentSkill = (row: SkillRow): Skill => ({
  type: 'skill',
  id: row.id,
  display_name: row.displayName,
  latest_version_id: row.latestVersionId,
  source: CUSTOM,
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});

export const presentSkillVersion = (row: SkillVersionInfo): SkillVersion => ({
  type: 'skill_version',
  id: row.id,
  skill_id: row.skillId,
  name: row.name,
  description: row.description,
  created_at: row.createdAt.toISOString(),
});

/** The version id a reference names: `latest` is the skill's newest. */
export const versionIdOf = (skill: Pick<SkillRow, 'latestVersionId'>, version: string): string => (version === LATEST ? skill.latestVersionId : version);
