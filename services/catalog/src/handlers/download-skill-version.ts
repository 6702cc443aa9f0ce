import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { skillVersionSubjects } from '@shared/bus/subjects/skills';
import { found } from '@shared/errors/api-error';
import { readSkillArchive } from '../db/skills';
import { skillVersionNotFound } from '../domain/not-found';
import type { CatalogDeps } from '../deps';
import { skillVersionOf } from './skill-lookup';

/** A version's files as the tar the SDK's worker unpacks; `latest` is the newest. */
export const downloadSkillVersion =
  (deps: CatalogDeps): Handler<typeof skillVersionSubjects.download> =>
  async ({ skill_id, version }, ctx) => {
    const { version: row } = await skillVersionOf(deps.db, tenantOf(ctx), skill_id, version);
    const archive = found(await readSkillArchive(deps.db, row.id), () => skillVersionNotFound(version));
    return { name: row.name, content_base64: archive.toString('base64') };
  };
