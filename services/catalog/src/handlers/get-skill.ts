import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { skillSubjects } from '@shared/bus/subjects/skills';
import { presentSkill } from '../domain/skill';
import type { CatalogDeps } from '../deps';
import { skillOf } from './skill-lookup';

export const getSkill =
  (deps: CatalogDeps): Handler<typeof skillSubjects.get> =>
  async ({ skill_id }, ctx) =>
    presentSkill(await skillOf(deps.db, tenantOf(ctx), skill_id));
