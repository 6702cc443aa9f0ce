import { Type, type Static } from '@sinclair/typebox';
import { Closed, IdOf, ListReply, ListRequest, Timestamp } from './common';
import { Deleted, TypedObject } from './resource-shapes';

/**
 * Custom skills and their versions (SDK `BetaSkill`, `BetaSkillVersion`,
 * resources/beta/skills/*.d.ts): an upload of files under one top-level directory whose
 * `SKILL.md` front matter names the skill and describes it. A skill holds at least one version;
 * `latest` is its newest. The catalog stores each version's files as the archive the SDK's worker
 * downloads and unpacks under `skills/<name>/`.
 */

/** The SDK's `version` alias for a skill's newest version. */
export const LATEST = 'latest';

/** Limits of one upload (docs/decisions.md). */
export const SKILL_LIMITS = {
  files: 200,
  totalBytes: 8 * 1024 * 1024,
  pathBytes: 512,
  nameChars: 64,
  descriptionChars: 1024,
  displayNameChars: 255,
} as const;

export const SkillSource = Closed({ type: Type.Union([Type.Literal('custom'), Type.Literal('anthropic'), Type.Literal('anthropic_example'), Type.Literal('plugin')]) });

export const Skill = TypedObject('skill', {
  display_name: Type.String(),
  latest_version_id: Type.String(),
  source: SkillSource,
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Skill = Static<typeof Skill>;

export const SkillVersion = TypedObject('skill_version', {
  skill_id: Type.String(),
  /** The skill's slug: its files' top directory, the same for every version. */
  name: Type.String(),
  description: Type.String(),
  created_at: Timestamp,
});
export type SkillVersion = Static<typeof SkillVersion>;

export const SkillDeleted = Deleted('skill_deleted');
export const SkillVersionDeleted = Deleted('skill_version_deleted');

/** One uploaded file: its path in the upload (`<dir>/SKILL.md`) and its bytes. */
export const SkillFile = Closed({ path: Type.String({ minLength: 1 }), content_base64: Type.String() });
export type SkillFile = Static<typeof SkillFile>;

export const CreateSkillRequest = Closed({ display_name: Type.Union([Type.String(), Type.Null()]), files: Type.Array(SkillFile) });
export type CreateSkillRequest = Static<typeof CreateSkillRequest>;
export const SkillIdRequest = Closed({ skill_id: IdOf('skill') });
/** A version by id, or `latest`. */
export const SkillVersionRef = Type.String({ minLength: 1, maxLength: 64, pattern: '^(latest|skillver_[A-Za-z0-9]{24})$', description: 'must be a skill version id or "latest"' });
export const SkillVersionRequest = Closed({ skill_id: IdOf('skill'), version: SkillVersionRef });
export const CreateSkillVersionRequest = Closed({ skill_id: IdOf('skill'), files: Type.Array(SkillFile) });

export const SkillListFilters = Closed({ source: Type.Union([Type.String(), Type.Null()]) });
export type SkillListFilters = Static<typeof SkillListFilters>;
export const SkillListRequest = ListRequest(SkillListFilters);
export const SkillListReply = ListReply(Skill);
export const SkillVersionListFilters = Closed({ skill_id: IdOf('skill') });
export type SkillVersionListFilters = Static<typeof SkillVersionListFilters>;
export const SkillVersionListRequest = ListRequest(SkillVersionListFilters);
export const SkillVersionListReply = ListReply(SkillVersion);

/** A version's files as the archive the SDK's worker unpacks (a tar, one top directory: the skill's name). */
export const SkillArchive = Closed({ name: Type.String(), content_base64: Type.String() });

/**
 * The versions a session's agent loads, as its system prompt names them: each `{skill_id,
 * version}` (version an id or `latest`) resolved to its name and description, or not found.
 */
export const ResolveSkillsRequest = Closed({ skills: Type.Array(Closed({ skill_id: Type.String(), version: Type.String() }), { maxItems: 64 }) });
export const ResolveSkillsReply = Closed({
  skills: Type.Array(Closed({ skill_id: Type.String(), version: Type.String(), found: Type.Union([Closed({ name: Type.String(), description: Type.String() }), Type.Null()]) })),
});
export type ResolveSkillsReply = Static<typeof ResolveSkillsReply>;
