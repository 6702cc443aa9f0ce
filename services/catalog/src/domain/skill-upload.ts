import { invalidRequest } from '@shared/errors/api-error';
import { SKILL_LIMITS, type SkillFile } from '@shared/schema/skill';

/** A skill upload as checked: its name and description (SKILL.md front matter) and its files below the top directory. */
export interface CheckedSkillUpload {
  name: string;
  description: string;
  files: Array<{ path: string; bytes: Buffer }>;
}

/** The SDK's kebab-case slug: lower-case letters and digits in hyphen-separated runs. */
const SKILL_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const UNSAFE_PATH_CHAR = /[\u0000-\u001f\u007f\\]/;

/**
 * The rules of an upload (SDK: "All files must be in the same top-level directory and must include
 * a SKILL.md file at the root of that directory"), each a 400 naming the file: relative paths
 * without `.`/`..`/empty segments, backslashes or control characters, under one directory, no
 * path twice, within SKILL_LIMITS; SKILL.md's front matter gives `description` and `name` (else the
 * directory's name), a kebab-case slug. `expectedName`: a new version keeps the skill's name.
 */
export function checkSkillUpload(files: SkillFile[], expectedName?: string): CheckedSkillUpload {
  if (files.length === 0) throw invalidRequest('files: at least one file is required, with <directory>/SKILL.md');
  if (files.length > SKILL_LIMITS.files) throw invalidRequest(`files: at most ${SKILL_LIMITS.files} files`);
  let top: string | undefined;
  let total = 0;
  const seen = new Set<string>();
  const checked = files.map((file, i) => {
    const field = `files.${i}`;
    const segments = file.path.split('/');
    if (Buffer.byteLength(file.path) > SKILL_LIMITS.pathBytes || UNSAFE_PATH_CHAR.test(file.path) || segments.some((s) => s === '' || s === '.' || s === '..')) {
      throw invalidRequest(`${field}: filename must be a relative path like "my-skill/SKILL.md" without ., .. or empty segments, backslashes or control characters`);
    }
    if (segments.length < 2) throw invalidRequest(`${field}: ${file.path} must be inside the skill's directory (e.g. "my-skill/${file.path}")`);
    if (top !== undefined && segments[0] !== top) throw invalidRequest(`${field}: every file must be in the same top-level directory ('${top}')`);
    top = segments[0]!;
    if (seen.has(file.path)) throw invalidRequest(`${field}: ${file.path} is uploaded twice`);
    seen.add(file.path);
    const bytes = Buffer.from(file.content_base64, 'base64');
    total += bytes.length;
    if (total > SKILL_LIMITS.totalBytes) throw invalidRequest(`files: larger than the ${SKILL_LIMITS.totalBytes}-byte limit of a skill`, 413);
    return { path: segments.slice(1).join('/'), bytes };
  });
  const skillMd = checked.find((f) => f.path === 'SKILL.md');
  if (!skillMd) throw invalidRequest(`files: ${top}/SKILL.md is required`);
  const front = frontMatter(skillMd.bytes.toString('utf8'));
  const name = front.name ?? top!;
  if (name.length > SKILL_LIMITS.nameChars || !SKILL_NAME.test(name)) {
    throw invalidRequest(`files: SKILL.md name must be ${SKILL_LIMITS.nameChars} characters at most of lower-case letters, digits and single hyphens (got ${JSON.stringify(name.slice(0, 80))})`);
  }
  if (expectedName !== undefined && name !== expectedName) {
    throw invalidRequest(`files: SKILL.md name '${name}' is not the skill's name '${expectedName}'; a skill keeps its name`);
  }
  const description = front.description?.trim() ?? '';
  if (!description) throw invalidRequest('files: SKILL.md front matter must have a description');
  if (description.length > SKILL_LIMITS.descriptionChars) throw invalidRequest(`files: SKILL.md description must be at most ${SKILL_LIMITS.descriptionChars} characters`);
  return { name, description, files: checked };
}

/** The `key: value` lines between a leading `---` and the next `---` (quotes around a value dropped). */
function frontMatter(text: string): Record<string, string> {
  const match = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)/.exec(text);
  if (!match) throw invalidRequest('files: SKILL.md must start with YAML front matter (---, name and description, ---)');
  const fields: Record<string, string> = {};
  for (const line of match[1]!.split(/\r?\n/)) {
    const kv = /^([A-Za-z_][\w-]*):\s*(.*)$/.exec(line);
    if (kv) fields[kv[1]!] = kv[2]!.trim().replace(/^(["'])([\s\S]*)\1$/, '$2');
  }
  return fields;
}

/** The archive a version's download serves: a tar whose one top directory is the skill's name (what the SDK's worker unpacks). */
export async function skillArchive(upload: CheckedSkillUpload): Promise<Buffer> {
  const entries = Object.fromEntries(upload.files.map((f) => [`${upload.name}/${f.path}`, f.bytes]));
  return Buffer.from(await new Bun.Archive(entries).bytes());
}
