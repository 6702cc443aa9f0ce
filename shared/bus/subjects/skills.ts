import {
  CreateSkillRequest,
  CreateSkillVersionRequest,
  ResolveSkillsReply,
  ResolveSkillsRequest,
  Skill,
  SkillArchive,
  SkillDeleted,
  SkillIdRequest,
  SkillListReply,
  SkillListRequest,
  SkillVersion,
  SkillVersionDeleted,
  SkillVersionListReply,
  SkillVersionListRequest,
  SkillVersionRequest,
} from '../../schema/skill';
import { defineSubjects } from '../subject';

/**
 * Custom skills and their versions, served by the catalog (which checks agents' `skills` against
 * them): `catalog.skills.<verb>`, `catalog.skill_versions.<verb>`, tenant from the call context.
 */
export const skillSubjects = defineSubjects('catalog', 'skills', {
  create: [CreateSkillRequest, Skill],
  get: [SkillIdRequest, Skill],
  list: [SkillListRequest, SkillListReply],
  /** The skill and every version of it. */
  delete: [SkillIdRequest, SkillDeleted],
  /** The runtime's: what a session's system prompt says of its agent's skills. */
  resolve: [ResolveSkillsRequest, ResolveSkillsReply, { callers: ['runtime'] }],
});

export const skillVersionSubjects = defineSubjects('catalog', 'skill_versions', {
  create: [CreateSkillVersionRequest, SkillVersion],
  get: [SkillVersionRequest, SkillVersion],
  list: [SkillVersionListRequest, SkillVersionListReply],
  /** Refused for a skill's only version (a skill holds at least one): delete the skill. */
  delete: [SkillVersionRequest, SkillVersionDeleted],
  download: [SkillVersionRequest, SkillArchive],
});
