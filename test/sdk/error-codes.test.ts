/**
 * `error.details.error_code` where the SDK declares one, through the gateway and the real services:
 * SDK 1.x raises its specific classes on them (BetaEnvironmentArchivedError, ...), SDK 0.x sees the
 * same status and body. Both versions run, unchanged clients.
 */
import { toFile } from '@anthropic-ai/sdk';
import type Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { describeEachSdk } from '../support/sdk';
import { Stack } from '../support/stack';

let stack: Stack;
beforeAll(async () => {
  stack = await Stack.start({ services: ['catalog'] });
});
afterAll(() => stack?.stop());

const failureOf = (promise: PromiseLike<unknown>) =>
  Promise.resolve(promise).then(
    () => undefined,
    (err: unknown) => err as InstanceType<typeof Anthropic.APIError> & { errorCode?: string | null },
  );
/** The error_code of the envelope as sent (0.x keeps the body in `error`; 1.x also reads it out). */
const codeOf = (err: { error?: unknown } | undefined) => (err?.error as { error?: { details?: { error_code?: string } } })?.error?.details?.error_code;

describeEachSdk('error codes the SDK maps to its error classes', (sdk) => {
  let client: Anthropic;
  beforeAll(async () => {
    client = new sdk.Anthropic({ apiKey: (await stack.createKey()).secret, baseURL: stack.url, maxRetries: 0 });
  });
  const classOf = (name: 'BetaEnvironmentArchivedError' | 'BetaInvalidConfigTypeChangeError' | 'BetaEnvironmentNotFoundError' | 'BetaInvalidMetadataError') =>
    (sdk.Anthropic.Beta.Environments as unknown as Record<string, unknown>)[name] as (new (...args: never[]) => unknown) | undefined;

  test('an archived environment cannot be updated: 400 environment_archived', async () => {
    const env = await client.beta.environments.create({ name: 'archived one' });
    await client.beta.environments.archive(env.id);
    const err = await failureOf(client.beta.environments.update(env.id, { name: 'again' }));
    expect(err?.status).toBe(400);
    expect(codeOf(err)).toBe('environment_archived');
    if (sdk.version === '1.14.0') expect(err).toBeInstanceOf(classOf('BetaEnvironmentArchivedError')!);
  });

  test("a config's type is fixed at creation: 400 invalid_config_type_change naming config.type", async () => {
    const env = await client.beta.environments.create({ name: 'cloud one', config: { type: 'cloud' } });
    const err = await failureOf(client.beta.environments.update(env.id, { config: { type: 'self_hosted' } }));
    expect(err?.status).toBe(400);
    expect(codeOf(err)).toBe('invalid_config_type_change');
    expect(err?.message).toContain('config.type: is cloud and cannot change after creation');
    if (sdk.version === '1.14.0') expect(err).toBeInstanceOf(classOf('BetaInvalidConfigTypeChangeError')!);
    // The same type with other settings is an ordinary update.
    const updated = await client.beta.environments.update(env.id, { config: { type: 'cloud', packages: { pip: ['requests'] } } });
    expect(updated.config).toMatchObject({ type: 'cloud', packages: { pip: ['requests'] } });
  });

  test('an unknown environment is 404 environment_not_found', async () => {
    const err = await failureOf(client.beta.environments.retrieve('env_000000000000000000000000'));
    expect(err?.status).toBe(404);
    expect(codeOf(err)).toBe('environment_not_found');
    if (sdk.version === '1.14.0') expect(err).toBeInstanceOf(classOf('BetaEnvironmentNotFoundError')!);
  });

  test('bad metadata is 400 invalid_metadata, by the schema or by the patch rule', async () => {
    const tooLong = await failureOf(client.beta.environments.create({ name: 'm', metadata: { k: 'v'.repeat(513) } }));
    expect(tooLong?.status).toBe(400);
    expect(codeOf(tooLong)).toBe('invalid_metadata');
    expect(tooLong?.message).toContain('metadata.k: must be at most 512 characters');
    if (sdk.version === '1.14.0') expect(tooLong).toBeInstanceOf(classOf('BetaInvalidMetadataError')!);

    const full = Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`k${i}`, 'v']));
    const env = await client.beta.environments.create({ name: 'full', metadata: full });
    const overflow = await failureOf(client.beta.environments.update(env.id, { metadata: { one_more: 'v' } }));
    expect(overflow?.status).toBe(400);
    expect(codeOf(overflow)).toBe('invalid_metadata');
  });

  test('an upload is not downloadable: 400 file_not_downloadable', async () => {
    const file = await client.beta.files.upload({ file: await toFile(Buffer.from('hi'), 'a.txt', { type: 'text/plain' }) });
    expect(file.downloadable).toBe(false);
    const err = await failureOf(client.beta.files.download(file.id));
    expect(err?.status).toBe(400);
    expect(codeOf(err)).toBe('file_not_downloadable');
    if (sdk.version === '1.14.0') expect(err).toBeInstanceOf(sdk.Anthropic.FileNotDownloadableError);
  });

  test('an error with no code carries no details', async () => {
    const err = await failureOf(client.beta.environments.create({ name: '' }));
    expect(err?.status).toBe(400);
    expect((err?.error as { error: Record<string, unknown> }).error).not.toHaveProperty('details');
  });
});
