import { Type } from '@sinclair/typebox';
import { skillSubjects, skillVersionSubjects } from '@shared/bus/subjects/skills';
import { invalidRequest, notFound } from '@shared/errors/api-error';
import { isIdOf } from '@shared/ids/ids';
import { LATEST, SKILL_LIMITS, type SkillFile } from '@shared/schema/skill';
import type { RawBody } from '../../http/raw-body';
import { pagedQuery, pageRoute } from '../../routing/pagination';
import type { Media } from '../../routing/route-contract';

/** Skills and skill versions on the wire: the uploads, the list routes, the archive download. */

export const skillListRoute = pageRoute({
  endpoint: 'skills.list',
  query: pagedQuery({ source: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })) }),
  subject: skillSubjects.list,
  toFilters: (q) => ({ source: q.source ?? null }),
});

export const skillVersionListRoute = pageRoute({
  endpoint: 'skill_versions.list',
  query: pagedQuery({}),
  subject: skillVersionSubjects.list,
  toFilters: (_q, params: { skill_id: string }) => ({ skill_id: params.skill_id }),
});

/** A `version` path segment names a version id or `latest`; anything else names nothing (404, as for an id). */
export function versionParam(version: string | null): string {
  if (version === LATEST || (version !== null && isIdOf('skillVersion', version))) return version;
  throw notFound(`skill version ${JSON.stringify((version ?? '').slice(0, 128))} not found`);
}

const filesField = (withName: boolean) =>
  Type.Array(Type.String({ contentMediaType: 'application/octet-stream' }), {
    description:
      `The skill's files (the SDK sends them as \`files[]\`), each named by its path under one top-level directory that holds SKILL.md ` +
      `(front matter: name, description); at most ${SKILL_LIMITS.files} files, ${SKILL_LIMITS.totalBytes} bytes in all.` +
      (withName ? '' : ' SKILL.md keeps the skill\'s name.'),
  });

/** The uploads as the document shows them: what readSkillUpload accepts. */
export const SkillCreateForm: Media = {
  mediaType: 'multipart/form-data',
  schema: Type.Object(
    { 'files[]': filesField(true), display_name: Type.Optional(Type.String({ maxLength: SKILL_LIMITS.displayNameChars })) },
    { additionalProperties: false },
  ),
};
export const SkillVersionForm: Media = {
  mediaType: 'multipart/form-data',
  schema: Type.Object({ 'files[]': filesField(false) }, { additionalProperties: false }),
};

/** A version's files: the tar the SDK's worker unpacks (`setupSkills`). */
export const SkillArchiveBytes: Media = {
  mediaType: 'application/x-tar',
  schema: Type.String({ contentMediaType: 'application/x-tar', description: "A tar of the version's files under one directory, the skill's name." }),
};

/**
 * A skill upload as the catalog receives it, read from the multipart body the guard read (after
 * the key was checked, within the upload limit): `files[]` (or `files`) file parts, each named by
 * its path, and, when `withDisplayName`, an optional `display_name`. Nothing else.
 */
export async function readSkillUpload(raw: RawBody | undefined, withDisplayName: boolean): Promise<{ display_name: string | null; files: SkillFile[] }> {
  if (!raw || !/^multipart\/form-data\s*;/i.test(raw.contentType)) throw invalidRequest('content-type: must be multipart/form-data with `files[]` parts');
  let form: Awaited<ReturnType<Response['formData']>>;
  try {
    form = await new Response(raw.bytes, { headers: { 'content-type': raw.contentType } }).formData();
  } catch {
    throw invalidRequest('body: malformed multipart/form-data');
  }
  const files: SkillFile[] = [];
  let displayName: string | null = null;
  for (const [name, value] of form.entries()) {
    if (name === 'files[]' || name === 'files') {
      if (!(value instanceof Blob)) throw invalidRequest(`${name}: must be file uploads`);
      const path = value instanceof File ? value.name : '';
      if (!path) throw invalidRequest(`files.${files.length}: a filename (the file's path in the skill) is required`);
      files.push({ path, content_base64: Buffer.from(await value.arrayBuffer()).toString('base64') });
    } else if (name === 'display_name' && withDisplayName && typeof value === 'string') {
      if (value.length > SKILL_LIMITS.displayNameChars || /[\r\n]/.test(value)) {
        throw invalidRequest(`display_name: must be one line of at most ${SKILL_LIMITS.displayNameChars} characters`);
      }
      displayName = value;
    } else {
      throw invalidRequest(`${name}: unknown field`);
    }
  }
  return { display_name: displayName, files };
}
