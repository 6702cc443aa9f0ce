import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { skillSubjects } from '@shared/bus/subjects/skills';
import { newId } from '@shared/ids/ids';
import { insertSkill } from '../db/skills';
import { presentSkill } from '../domain/skill';
import { checkSkillUpload, skillArchive } from '../domain/skill-upload';
import type { CatalogDeps } from '../deps';

/** A new skill from an upload, with it as its first version; `display_name` defaults to the SKILL.md name. */
export const createSkill =
  (deps: CatalogDeps): Handler<typeof skillSubjects.create> =>
  async ({ display_name, files }, ctx) => {
    const tenant = tenantOf(ctx);
    const upload = checkSkillUpload(files);
    const archive = await skillArchive(upload);
    const now = deps.clock.now();
    const owner = { organizationId: tenant.organization_id, workspaceId: tenant.workspace_id };
    const skill = { id: newId('skill'), ...owner, displayName: display_name ?? upload.name, name: upload.name, latestVersionId: newId('skillVersion'), createdAt: now, updatedAt: now };
    const version = { id: skill.latestVersionId, ...owner, skillId: skill.id, name: upload.name, description: upload.description, archive, createdAt: now };
    await deps.db.transaction((tx) => insertSkill(tx, skill, version));
    return presentSkill(skill);
  };
