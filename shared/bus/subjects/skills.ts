import * as skill from '../../schema/skill';
import { defineSubjects } from '../subject';

/**
 * Custom skills and their versions, served by the catalog (which checks agents' `skills` against
 * them): `catalog.skills.<verb>`, `catalog.skill_versions.<verb>`, tenant from the call context.
 */
export const skillSubjects = defineSubjects('catalog', 'skills', {
  create: [skill.CreateSkillRequest, skill.Skill],
  get: [skill.SkillIdRequest, skill.Skill],
  list: [skill.SkillListRequest, skill.SkillListReply],
  /** The skill and every version of it. */
  delete: [skill.SkillIdRequest, skill.SkillDeleted],
  /** The runtime's: what a session's system prompt says of its agent's skills. */
  resolve: [skill.ResolveSkillsRequest, skill.ResolveSkillsReply, { callers: ['runtime'] }],
});

export const skillVersionSubjects = defineSubjects('catalog', 'skill_versions', {
  create: [skill.CreateSkillVersionRequest, skill.SkillVersion],
  get: [skill.SkillVersionRequest, skill.SkillVersion],
  list: [skill.SkillVersionListRequest, skill.SkillVersionListReply],
  /** Refused for a skill's only version (a skill holds at least one): delete the skill. */
  delete: [skill.SkillVersionRequest, skill.SkillVersionDeleted],
  download: [skill.SkillVersionRequest, skill.SkillArchive],
});
