import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { skillSubjects } from '@shared/bus/subjects/skills';
import { listSkillPage } from '../db/skills';
import { presentSkill } from '../domain/skill';
import type { CatalogDeps } from '../deps';


export const listSkills =
  (deps: CatalogDeps): Handler<typeof skillSubjects.list> =>
  (request, ctx) =>
    listSkillPage(deps.db, tenantOf(ctx), request, presentSkill);
