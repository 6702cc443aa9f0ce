import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { skillVersionSubjects } from '@shared/bus/subjects/skills';
import { newId } from '@shared/ids/ids';
import { insertSkillVersion } from '../db/skills';
import { presentSkillVersion } from '../domain/skill';
import { checkSkillUpload, skillArchive } from '../domain/skill-upload';
import type { CatalogDeps } from '../deps';
import { skillOf } from './skill-lookup';

/** A new version of a skill, under the skill's lock (so `latest` moves once per version), which becomes its latest. */
export const createSkillVersion =
  (deps: CatalogDeps): Handler<typeof skillVersionSubjects.create> =>
  async ({ skill_id, files }, ctx) => {
    const tenant = tenantOf(ctx);
    const seen = await skillOf(deps.db, tenant, skill_id);
    const upload = checkSkillUpload(files, seen.name);
    const archive = await skillArchive(upload);
    return deps.db.transaction(async (tx) => {
      const skill = await skillOf(tx, tenant, skill_id, { lock: true });
      const now = deps.clock.now();
      const version = {
        id: newId('skillVersion'),
        organizationId: skill.organizationId,
        workspaceId: skill.workspaceId,
        skillId: skill.id,
        name: upload.name,
        description: upload.description,
        archive,
        createdAt: now,
      };
      await insertSkillVersion(tx, version);
      return presentSkillVersion(version);
    });
  };
