/**
 * Custom skills and their versions through the unchanged SDK (both versions), against the real
 * gateway and catalog: an upload of files under one directory with SKILL.md, versions by id and
 * `latest`, the download the SDK's worker unpacks (checked with the system's tar), deletes, the
 * upload's rules as 400s naming the file, another tenant's view, and agents' `skills` checked
 * against what exists. The clock moves a second before each write, so "newest" has one answer.
 */
import type Anthropic from '@anthropic-ai/sdk';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, expect, test } from 'bun:test';
import { ManualClock } from '@shared/time/clock';
import { apiClient } from '../support/api';
import { expectOk, sdkFailure } from '../support/expect';
import { MODELS, skillForm, useStack } from '../support/fixtures';
import { SKILL_LIMITS } from '@shared/schema/skill';
import { describeEachSdk } from '../support/sdk';
import { expectSdkShape } from '../support/sdk-shape';

const clock = new ManualClock('2026-03-01T09:00:00.000Z');
const t = useStack({ services: ['catalog'], clock });
/** A client of one tenant, and one of another. */
let client: Anthropic;
let otherClient: Anthropic;

const skillMd = (name: string, description: string) => `---\nname: ${name}\ndescription: "${description}"\n---\n\n# ${name}\n`;
const file = (path: string, text: string) => new File([text], path);
const greeter = (description = 'Greets people') => [file('greeter/SKILL.md', skillMd('greeter', description)), file('greeter/bin/hello.sh', 'echo hello\n')];

describeEachSdk('skills through the SDK', (sdk) => {
  beforeAll(async () => {
    const tenantClient = async () => new sdk.Anthropic({ apiKey: (await t.stack.createKey()).secret, baseURL: t.stack.url, maxRetries: 0 });
    [client, otherClient] = [await tenantClient(), await tenantClient()];
  });
  const create = (files: File[], display_name?: string) => {
    clock.advance(1000);
    return client.beta.skills.create({ files, ...(display_name ? { display_name } : {}) });
  };

  test('an upload is a skill with its first version; versions by id and latest; list and retrieve', async () => {
    const skill = await create(greeter());
    expectSdkShape(skill, 'BetaSkill');
    expect(skill).toMatchObject({ type: 'skill', display_name: 'greeter', source: { type: 'custom' } });
    expect(skill.id).toMatch(/^skill_/);
    const first = await client.beta.skills.versions.retrieve('latest', { skill_id: skill.id });
    expectSdkShape(first, 'BetaSkillVersion');
    expect(first).toMatchObject({ id: skill.latest_version_id, skill_id: skill.id, name: 'greeter', description: 'Greets people' });
    clock.advance(1000);
    const second = await client.beta.skills.versions.create(skill.id, { files: greeter('Greets people warmly') });
    expect(second.description).toBe('Greets people warmly');
    expect((await client.beta.skills.retrieve(skill.id)).latest_version_id).toBe(second.id);
    expect((await client.beta.skills.versions.retrieve('latest', { skill_id: skill.id })).id).toBe(second.id);
    expect((await client.beta.skills.versions.retrieve(first.id, { skill_id: skill.id })).description).toBe('Greets people');
    const versions = [];
    for await (const v of client.beta.skills.versions.list(skill.id, { limit: 1 })) versions.push(v.id);
    expect(versions).toEqual([second.id, first.id]);
    const named = await create(greeter(), 'Front desk');
    expect(named.display_name).toBe('Front desk');
    const listed = (await client.beta.skills.list({ limit: 2 })).data.map((s) => s.id);
    expect(listed).toEqual([named.id, skill.id]);
    expect((await client.beta.skills.list({ source: 'anthropic' })).data).toEqual([]);
  });

  test("the download is a tar the system's tar unpacks into the skill's directory", async () => {
    const skill = await create(greeter());
    const response = await client.beta.skills.versions.download('latest', { skill_id: skill.id });
    const dir = await mkdtemp(join(tmpdir(), 'skill-archive-'));
    try {
      await Bun.write(join(dir, 'skill.tar'), await response.arrayBuffer());
      expect(Bun.spawnSync(['tar', '-xf', join(dir, 'skill.tar'), '-C', dir]).exitCode).toBe(0);
      expect(await readFile(join(dir, 'greeter', 'SKILL.md'), 'utf8')).toBe(skillMd('greeter', 'Greets people'));
      expect(await readFile(join(dir, 'greeter', 'bin', 'hello.sh'), 'utf8')).toBe('echo hello\n');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('deletes: a version (latest moves back), never the only one; the skill with all of them', async () => {
    const skill = await create(greeter());
    clock.advance(1000);
    const second = await client.beta.skills.versions.create(skill.id, { files: greeter('v2') });
    expect(await client.beta.skills.versions.delete(second.id, { skill_id: skill.id })).toEqual({ type: 'skill_version_deleted', id: second.id });
    expect((await client.beta.skills.retrieve(skill.id)).latest_version_id).toBe(skill.latest_version_id);
    const only = await sdkFailure(client.beta.skills.versions.delete('latest', { skill_id: skill.id }));
    expect(only.status).toBe(400);
    expect(only.error.error.message).toContain('only version');
    expect(await client.beta.skills.delete(skill.id)).toEqual({ type: 'skill_deleted', id: skill.id });
    expect((await sdkFailure(client.beta.skills.retrieve(skill.id))).status).toBe(404);
    expect((await sdkFailure(client.beta.skills.versions.retrieve(skill.latest_version_id, { skill_id: skill.id }))).status).toBe(404);
  });

  test.each([
    ['no SKILL.md', [file('greeter/README.md', 'hi')], 'files: greeter/SKILL.md is required'],
    ['no front matter', [file('greeter/SKILL.md', '# greeter')], 'files: SKILL.md must start with YAML front matter'],
    ['no description', [file('greeter/SKILL.md', '---\nname: greeter\n---\n')], 'files: SKILL.md front matter must have a description'],
    ['a name that is no slug', [file('greeter/SKILL.md', skillMd('Greeter Bot', 'x'))], 'files: SKILL.md name must be'],
    ['two top directories', [...greeter(), file('other/x.md', 'x')], 'files.2: every file must be in the same top-level directory'],
    ['a climbing path', [...greeter(), file('greeter/../x.md', 'x')], 'files.2: filename must be a relative path'],
    ['a file outside any directory', [file('SKILL.md', skillMd('greeter', 'x'))], 'files.0: SKILL.md must be inside'],
  ])('an upload with %s is a 400 naming it', async (_, files, message) => {
    const failure = await sdkFailure(client.beta.skills.create({ files }));
    expect(failure.status).toBe(400);
    expect(failure.error.error.message).toStartWith(message);
  });

  test('a new version keeps the skill name; another tenant sees none of it', async () => {
    const skill = await create(greeter());
    const renamed = await sdkFailure(client.beta.skills.versions.create(skill.id, { files: [file('other/SKILL.md', skillMd('other', 'x'))] }));
    expect(renamed.error.error.message).toContain("is not the skill's name 'greeter'");
    expect((await sdkFailure(otherClient.beta.skills.retrieve(skill.id))).status).toBe(404);
    expect((await sdkFailure(otherClient.beta.skills.versions.download('latest', { skill_id: skill.id }))).status).toBe(404);
    expect((await otherClient.beta.skills.list()).data).toEqual([]);
  });

  test("an agent's custom skills must exist, at the version named", async () => {
    const skill = await create(greeter());
    const agent = await client.beta.agents.create({ name: 'a', model: MODELS.priced, skills: [{ type: 'custom', skill_id: skill.id, version: 'latest' }] } as never);
    expect((agent as { skills: unknown[] }).skills).toEqual([{ type: 'custom', skill_id: skill.id, version: 'latest' }]);
    const pinned = await client.beta.agents.create({ name: 'b', model: MODELS.priced, skills: [{ type: 'custom', skill_id: skill.id, version: skill.latest_version_id }] } as never);
    expect((pinned as { skills: Array<{ version: string }> }).skills[0]!.version).toBe(skill.latest_version_id);
    const missing = await sdkFailure(client.beta.agents.create({ name: 'c', model: MODELS.priced, skills: [{ type: 'anthropic', skill_id: 'xlsx' }, { type: 'custom', skill_id: 'skill_000000000000000000000000' }] } as never));
    expect(missing.status).toBe(400);
    expect(missing.error.error.message).toBe("skills.1.skill_id: skill 'skill_000000000000000000000000' not found");
    const wrongVersion = await sdkFailure(
      client.beta.agents.create({ name: 'd', model: MODELS.priced, skills: [{ type: 'custom', skill_id: skill.id, version: 'skillver_000000000000000000000000' }] } as never),
    );
    expect(wrongVersion.error.error.message).toStartWith('skills.0.version:');
    const theirs = await sdkFailure(otherClient.beta.agents.create({ name: 'e', model: MODELS.priced, skills: [{ type: 'custom', skill_id: skill.id }] } as never));
    expect(theirs.status).toBe(400);
  });
});

test('an upload over the size limit is 413; a form field the API does not take is 400; a version segment that names nothing is 404', async () => {
  const api = apiClient(t.stack.url, (await t.stack.createKey()).secret);
  const big = 'x'.repeat(SKILL_LIMITS.totalBytes + 1);
  const tooBig = await api('POST', '/v1/skills', { rawBody: skillForm('big', 'Too big', { 'blob.txt': big }) });
  expect(tooBig.status).toBe(413);
  expect(tooBig.body.error.message).toStartWith(`files: larger than the ${SKILL_LIMITS.totalBytes}-byte limit`);
  const form = skillForm();
  form.append('source', 'custom');
  const unknown = await api('POST', '/v1/skills', { rawBody: form });
  expect(unknown.status).toBe(400);
  expect(unknown.body.error.message).toBe('source: unknown field');
  const skill = expectOk(await api('POST', '/v1/skills', { rawBody: skillForm() }));
  for (const version of ['1', 'LATEST', 'skillver_short']) {
    const missing = await api('GET', `/v1/skills/${skill.id}/versions/${version}`);
    expect(missing.status).toBe(404);
  }
});
