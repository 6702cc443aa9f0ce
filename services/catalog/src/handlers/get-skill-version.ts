import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { skillVersionSubjects } from '@shared/bus/subjects/skills';
import { presentSkillVersion } from '../domain/skill';
import type { CatalogDeps } from '../deps';
import { skillVersionOf } from './skill-lookup';

/** A version by id, or the skill's newest for `latest`. */
export const getSkillVersion =
  (deps: CatalogDeps): Handler<typeof skillVersionSubjects.get> =>
  async ({ skill_id, version }, ctx) =>
    presentSkillVersion((await skillVersionOf(deps.db, tenantOf(ctx), skill_id, version)).version);
