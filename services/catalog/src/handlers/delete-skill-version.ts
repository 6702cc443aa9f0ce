import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { skillVersionSubjects } from '@shared/bus/subjects/skills';
import { invalidRequest } from '@shared/errors/api-error';
import { deleteSkillVersion as deleteVersionRow, newestSkillVersions } from '../db/skills';
import type { CatalogDeps } from '../deps';
import { skillVersionOf } from './skill-lookup';

/** One version; the newest that remains becomes `latest`. A skill keeps at least one: its last version goes with the skill. */
export const deleteSkillVersion =
  (deps: CatalogDeps): Handler<typeof skillVersionSubjects.delete> =>
  async ({ skill_id, version }, ctx) => {
    const tenant = tenantOf(ctx);
    const deleted = await deps.db.transaction(async (tx) => {
      const target = await skillVersionOf(tx, tenant, skill_id, version, { lock: true });
      const [newest, next] = await newestSkillVersions(tx, skill_id, 2);
      if (!next) throw invalidRequest(`version: '${target.version.id}' is the only version of skill '${skill_id}'; delete the skill instead`);
      const nextLatest = target.skill.latestVersionId === target.version.id ? (newest!.id === target.version.id ? next.id : newest!.id) : null;
      await deleteVersionRow(tx, target.version, nextLatest, deps.clock.now());
      return target.version.id;
    });
    return { type: 'skill_version_deleted' as const, id: deleted };
  };
