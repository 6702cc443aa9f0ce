import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { skillSubjects } from '@shared/bus/subjects/skills';
import { findSkills, findSkillVersions } from '../db/skills';
import { versionIdOf } from '../domain/skill';
import type { CatalogDeps } from '../deps';

/** Each `{skill_id, version}` as its version's name and description, or null when either is gone: two IN queries, however many. */
export const resolveSkills =
  (deps: CatalogDeps): Handler<typeof skillSubjects.resolve> =>
  async ({ skills }, ctx) => {
    const tenant = tenantOf(ctx);
    const found = new Map((await findSkills(deps.db, tenant, skills.map((s) => s.skill_id))).map((s) => [s.id, s]));
    const wanted = skills.map((s) => {
      const skill = found.get(s.skill_id);
      return skill ? versionIdOf(skill, s.version) : null;
    });
    const versions = new Map((await findSkillVersions(deps.db, tenant, wanted.filter((id): id is string => id !== null))).map((v) => [v.id, v]));
    return {
      skills: skills.map((s, i) => {
        const version = wanted[i] ? versions.get(wanted[i]!) : undefined;
        return { ...s, found: version && version.skillId === s.skill_id ? { name: version.name, description: version.description } : null };
      }),
    };
  };
