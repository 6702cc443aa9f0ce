import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { skillVersionSubjects } from '@shared/bus/subjects/skills';
import { listSkillVersionPage } from '../db/skills';
import { presentSkillVersion } from '../domain/skill';
import type { CatalogDeps } from '../deps';
import { skillOf } from './skill-lookup';

/** A skill's versions, newest first; 404 for a skill that is not the caller's. */
export const listSkillVersions =
  (deps: CatalogDeps): Handler<typeof skillVersionSubjects.list> =>
  async (request, ctx) => {
    const tenant = tenantOf(ctx);
    await skillOf(deps.db, tenant, request.filters.skill_id);
    return listSkillVersionPage(deps.db, tenant, request, presentSkillVersion);
  };
