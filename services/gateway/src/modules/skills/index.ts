import { skillSubjects, skillVersionSubjects } from '@shared/bus/subjects/skills';
import { servePage } from '../../routing/pagination';
import { resourceModule } from '../../routing/resource-module';
import { route } from '../../routing/route';
import type { GatewayDeps } from '../../deps';
import { TRANSFER_TIMEOUT_FACTOR } from '../files';
import { readSkillUpload, SkillArchiveBytes, SkillCreateForm, skillListRoute, SkillVersionForm, skillVersionListRoute, versionParam } from './model';

const SKILL = '/v1/skills/:skill_id';
const VERSION = `${SKILL}/versions/:version`;

/** /v1/skills: custom skills and their versions, stored by the catalog; uploads and downloads go as file transfers do. */
export const skillsModule = (deps: GatewayDeps) => {
  const transfer = { timeoutMs: deps.config.BUS_TIMEOUT_MS * TRANSFER_TIMEOUT_FACTOR };
  return resourceModule('skills', deps, [
    route.post('/v1/skills', { body: { media: SkillCreateForm, read: (raw) => readSkillUpload(raw, true) }, reply: skillSubjects.create.reply }, ({ call, body }) =>
      deps.bus.call(skillSubjects.create, call, body, transfer),
    ),
    route.list('/v1/skills', servePage(skillListRoute, deps)),
    route.get(SKILL, { reply: skillSubjects.get.reply }, ({ call, params }) => deps.bus.call(skillSubjects.get, call, params)),
    route.delete(SKILL, { reply: skillSubjects.delete.reply }, ({ call, params }) => deps.bus.call(skillSubjects.delete, call, params)),
    route.post(`${SKILL}/versions`, { body: { media: SkillVersionForm, read: (raw) => readSkillUpload(raw, false) }, reply: skillVersionSubjects.create.reply }, async ({ call, params, body }) =>
      deps.bus.call(skillVersionSubjects.create, call, { skill_id: params.skill_id, files: body.files }, transfer),
    ),
    route.list(`${SKILL}/versions`, servePage(skillVersionListRoute, deps)),
    route.get(VERSION, { reply: skillVersionSubjects.get.reply }, ({ call, params }) =>
      deps.bus.call(skillVersionSubjects.get, call, { skill_id: params.skill_id, version: versionParam(params.version) }),
    ),
    route.delete(VERSION, { reply: skillVersionSubjects.delete.reply }, ({ call, params }) =>
      deps.bus.call(skillVersionSubjects.delete, call, { skill_id: params.skill_id, version: versionParam(params.version) }),
    ),
    route.get(`${VERSION}/content`, { reply: SkillArchiveBytes }, async ({ call, params }) => {
      const archive = await deps.bus.call(skillVersionSubjects.download, call, { skill_id: params.skill_id, version: versionParam(params.version) }, transfer);
      return new Response(Buffer.from(archive.content_base64, 'base64'), {
        headers: { 'content-type': 'application/x-tar', 'content-disposition': `attachment; filename="${archive.name}.tar"` },
      });
    }),
  ]);
};
