import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { skillSubjects } from '@shared/bus/subjects/skills';
import { deleteSkill as deleteSkillRows } from '../db/skills';
import type { CatalogDeps } from '../deps';
import { skillOf } from './skill-lookup';

/** The skill and all its versions. Agents that name it keep the reference; their sessions skip a skill that is gone. */
export const deleteSkill =
  (deps: CatalogDeps): Handler<typeof skillSubjects.delete> =>
  async ({ skill_id }, ctx) => {
    const tenant = tenantOf(ctx);
    await deps.db.transaction(async (tx) => {
      await skillOf(tx, tenant, skill_id, { lock: true });
      await deleteSkillRows(tx, skill_id);
    });
    return { type: 'skill_deleted' as const, id: skill_id };
  };
