/**
 * Memories and memory versions through the unchanged SDK (both versions), against the real
 * gateway and catalog: create, retrieve, update (content, rename, preconditions), delete, list
 * (prefix, depth, view, pagination), versions (filters, redaction), the 409s with their own
 * error objects, archived stores, another tenant's view, and store deletion taking its memories.
 * The clock is a ManualClock moved a second before each write, so "newest first" has one answer.
 */
import type Anthropic from '@anthropic-ai/sdk';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { ManualClock } from '@shared/time/clock';
import { sdkFailure } from '../support/expect';
import { describeEachSdk } from '../support/sdk';
import { expectSdkShape } from '../support/sdk-shape';
import { Stack } from '../support/stack';

const clock = new ManualClock('2026-03-01T09:00:00.000Z');
let stack: Stack;
let client: Anthropic;
let otherClient: Anthropic;

beforeAll(async () => {
  stack = await Stack.start({ services: ['catalog'], clock });
});
afterAll(() => stack?.stop());

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describeEachSdk('memories through the SDK', (sdk) => {
  beforeAll(async () => {
    client = new sdk.Anthropic({ apiKey: (await stack.createKey()).secret, baseURL: stack.url, maxRetries: 0 });
    otherClient = new sdk.Anthropic({ apiKey: (await stack.createKey()).secret, baseURL: stack.url, maxRetries: 0 });
  });

  const newStore = () => client.beta.memoryStores.create({ name: 'notes' });
  /** A write one second after the last, so versions have distinct, ordered creation times. */
  const create = (storeId: string, path: string, content: string) => {
    clock.advance(1000);
    return client.beta.memoryStores.memories.create(storeId, { path, content });
  };

  test('create, retrieve, update and delete, each recorded as a version', async () => {
    const store = await newStore();
    const created = await create(store.id, '/projects/alpha/notes.md', 'first draft');
    expectSdkShape(created, 'BetaManagedAgentsMemory');
    expect(created).toMatchObject({
      type: 'memory',
      memory_store_id: store.id,
      path: '/projects/alpha/notes.md',
      content: null, // create answers basic by default
      content_sha256: sha256('first draft'),
      content_size_bytes: 11,
    });
    expect(created.id).toMatch(/^mem_[0-9A-Za-z]{24}$/);
    expect(created.memory_version_id).toMatch(/^memver_[0-9A-Za-z]{24}$/);

    const read = await client.beta.memoryStores.memories.retrieve(created.id, { memory_store_id: store.id });
    expect(read.content).toBe('first draft');
    const basic = await client.beta.memoryStores.memories.retrieve(created.id, { memory_store_id: store.id, view: 'basic' });
    expect(basic.content).toBeNull();

    clock.advance(1000);
    const renamed = await client.beta.memoryStores.memories.update(created.id, {
      memory_store_id: store.id,
      path: '/projects/beta/notes.md',
      content: 'second draft é',
      view: 'full',
    });
    expect(renamed).toMatchObject({ id: created.id, path: '/projects/beta/notes.md', content: 'second draft é', content_size_bytes: 15 });
    expect(renamed.content_sha256).toBe(sha256('second draft é'));
    expect(renamed.memory_version_id).not.toBe(created.memory_version_id);
    expect(renamed.updated_at > created.updated_at).toBe(true);

    // Nothing changes: no new version.
    clock.advance(1000);
    const same = await client.beta.memoryStores.memories.update(created.id, { memory_store_id: store.id, content: 'second draft é' });
    expect(same.memory_version_id).toBe(renamed.memory_version_id);

    clock.advance(1000);
    expect(await client.beta.memoryStores.memories.delete(created.id, { memory_store_id: store.id })).toEqual({ type: 'memory_deleted', id: created.id });
    expect((await sdkFailure(client.beta.memoryStores.memories.retrieve(created.id, { memory_store_id: store.id }))).status).toBe(404);

    const versions = await client.beta.memoryStores.memoryVersions.list(store.id, { memory_id: created.id, view: 'full' });
    expect(versions.data.map((v) => v.operation)).toEqual(['deleted', 'modified', 'created']);
    for (const version of versions.data) expectSdkShape(version, 'BetaManagedAgentsMemoryVersion');
    const [deleted, modified, first] = versions.data;
    expect(deleted).toMatchObject({ path: '/projects/beta/notes.md', content: null, content_sha256: null, content_size_bytes: null });
    expect(modified).toMatchObject({ id: renamed.memory_version_id, content: 'second draft é', path: '/projects/beta/notes.md' });
    expect(first).toMatchObject({ id: created.memory_version_id, content: 'first draft', path: '/projects/alpha/notes.md', redacted_at: null });
    expect(first!.created_by).toMatchObject({ type: 'api_actor' });
    expect((first!.created_by as { api_key_id: string }).api_key_id).toMatch(/^key_/);
  });

  test('preconditions: a stale hash is 409 memory_precondition_failed_error, unless the memory already is as asked', async () => {
    const store = await newStore();
    const memory = await create(store.id, '/todo.md', 'one');
    const stale = sha256('zero');
    const failed = await sdkFailure(
      client.beta.memoryStores.memories.update(memory.id, {
        memory_store_id: store.id,
        content: 'two',
        precondition: { type: 'content_sha256', content_sha256: stale },
      }),
    );
    expect(failed.status).toBe(409);
    expect(failed.error.error).toMatchObject({ type: 'memory_precondition_failed_error' });
    // The request already holds: it succeeds whatever the hash says.
    const unchanged = await client.beta.memoryStores.memories.update(memory.id, {
      memory_store_id: store.id,
      content: 'one',
      precondition: { type: 'content_sha256', content_sha256: stale },
    });
    expect(unchanged.memory_version_id).toBe(memory.memory_version_id);
    const applied = await client.beta.memoryStores.memories.update(memory.id, {
      memory_store_id: store.id,
      content: 'two',
      precondition: { type: 'content_sha256', content_sha256: memory.content_sha256 },
    });
    expect(applied.content_sha256).toBe(sha256('two'));

    const refused = await sdkFailure(
      client.beta.memoryStores.memories.delete(memory.id, { memory_store_id: store.id, expected_content_sha256: sha256('one') }),
    );
    expect(refused.status).toBe(409);
    expect(refused.error.error.type).toBe('memory_precondition_failed_error');
    await client.beta.memoryStores.memories.delete(memory.id, { memory_store_id: store.id, expected_content_sha256: sha256('two') });
  });

  test('two updates racing on one precondition: exactly one applies', async () => {
    const store = await newStore();
    const memory = await create(store.id, '/race.md', 'start');
    const precondition = { type: 'content_sha256' as const, content_sha256: memory.content_sha256 };
    const results = await Promise.allSettled(
      ['left', 'right', 'up', 'down'].map((content) =>
        client.beta.memoryStores.memories.update(memory.id, { memory_store_id: store.id, content, precondition }),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results) if (r.status === 'rejected') expect((r.reason as { status: number }).status).toBe(409);
  });

  test('paths: equal or overlapping paths are 409 memory_path_conflict_error naming the memory in the way', async () => {
    const store = await newStore();
    const notes = await create(store.id, '/notes/todo.md', 'x');
    for (const path of ['/notes/todo.md', '/notes', '/notes/todo.md/deeper']) {
      const failed = await sdkFailure(client.beta.memoryStores.memories.create(store.id, { path, content: 'y' }));
      expect(failed.status).toBe(409);
      expect(failed.error.error).toMatchObject({ type: 'memory_path_conflict_error', conflicting_memory_id: notes.id, conflicting_path: '/notes/todo.md' });
    }
    // Whole segments: `/notes-archive` and `/note` are neither.
    await create(store.id, '/notes-archive/todo.md', 'z');
    await create(store.id, '/note', 'z');
    const other = await create(store.id, '/other.md', 'o');
    const renameFailure = await sdkFailure(client.beta.memoryStores.memories.update(other.id, { memory_store_id: store.id, path: '/notes' }));
    expect(renameFailure.error.error).toMatchObject({ type: 'memory_path_conflict_error', conflicting_memory_id: notes.id });
    // Case-sensitive, and a trailing space is another path.
    await create(store.id, '/Other.md', 'o');
    await create(store.id, '/other.md ', 'o');
  });

  test('bad paths and contents are 400s naming the field', async () => {
    const store = await newStore();
    const bad: Array<[string, string]> = [
      ['notes.md', 'path: must start with /'],
      ['/a//b', 'path: must not have an empty segment'],
      ['/a/', 'path: must not have an empty segment'],
      ['/a/../b', 'path: must not have a . or .. segment'],
      ['/a/./b', 'path: must not have a . or .. segment'],
      ['/a\u0007b', 'path: must not contain control or format characters'],
      ['/a\u200Bb', 'path: must not contain control or format characters'],
      ['/a\u2028b', 'path: must not contain control or format characters'],
      ['/cafe\u0301', 'path: must be in Unicode Normalization Form C'],
      [`/${'x/'.repeat(20)}y`, 'path: must have at most 20 segments'],
      [`/${'é'.repeat(512)}`, 'path: must be at most 1024 bytes'],
    ];
    for (const [path, message] of bad) {
      const failed = await sdkFailure(client.beta.memoryStores.memories.create(store.id, { path, content: '' }));
      expect({ path, status: failed.status, message: failed.error.error.message }).toEqual({ path, status: 400, message: expect.stringContaining(message) });
    }
    const big = await sdkFailure(client.beta.memoryStores.memories.create(store.id, { path: '/big', content: 'é'.repeat(51_201) }));
    expect(big.status).toBe(400);
    expect(big.error.error.message).toStartWith('content: must be at most 102400 bytes');
    const fits = await create(store.id, '/fits', 'x'.repeat(102_400));
    expect(fits.content_size_bytes).toBe(102_400);
  });

  test('lists: path order, whole-segment prefixes, depth rolls deeper memories into memory_prefix items, pages by cursor', async () => {
    const store = await newStore();
    for (const path of ['/b.md', '/a/one.md', '/a/two.md', '/a/deep/three.md', '/a/deep/four.md', '/ab/x.md', '/c/d/e/f.md'])
      await create(store.id, path, path);

    const all = await client.beta.memoryStores.memories.list(store.id);
    expect(all.data.map((m) => m.path)).toEqual(['/a/deep/four.md', '/a/deep/three.md', '/a/one.md', '/a/two.md', '/ab/x.md', '/b.md', '/c/d/e/f.md']);
    for (const m of all.data) expect(m).toMatchObject({ type: 'memory', content: null });

    const underA = await client.beta.memoryStores.memories.list(store.id, { path_prefix: '/a/' });
    expect(underA.data.map((m) => m.path)).toEqual(['/a/deep/four.md', '/a/deep/three.md', '/a/one.md', '/a/two.md']);

    const top = await client.beta.memoryStores.memories.list(store.id, { depth: 1 });
    expect(top.data.map((m) => [m.type, m.path])).toEqual([
      ['memory_prefix', '/a/'],
      ['memory_prefix', '/ab/'],
      ['memory', '/b.md'],
      ['memory_prefix', '/c/'],
    ]);
    for (const m of top.data) expectSdkShape(m, 'BetaManagedAgentsMemoryListItem');
    const children = await client.beta.memoryStores.memories.list(store.id, { path_prefix: '/a/', depth: 1, view: 'full' });
    expect(children.data.map((m) => [m.type, m.path])).toEqual([
      ['memory_prefix', '/a/deep/'],
      ['memory', '/a/one.md'],
      ['memory', '/a/two.md'],
    ]);
    expect(children.data[1]).toMatchObject({ content: '/a/one.md' });

    // Pages of two, a prefix counting like a memory; the SDK follows next_page.
    const first = await client.beta.memoryStores.memories.list(store.id, { depth: 1, limit: 2 });
    expect(first.data.map((m) => m.path)).toEqual(['/a/', '/ab/']);
    expect(first.next_page).toEqual(expect.any(String));
    const walked: string[] = [];
    for await (const item of client.beta.memoryStores.memories.list(store.id, { limit: 3 })) walked.push(item.path);
    expect(walked).toEqual(all.data.map((m) => m.path));
    const walkedTop: string[] = [];
    for await (const item of client.beta.memoryStores.memories.list(store.id, { depth: 1, limit: 1 })) walkedTop.push(item.path);
    expect(walkedTop).toEqual(['/a/', '/ab/', '/b.md', '/c/']);

    const tooMany = await sdkFailure(client.beta.memoryStores.memories.list(store.id, { view: 'full', limit: 21 }));
    expect(tooMany.status).toBe(400);
    expect(tooMany.error.error.message).toStartWith('limit:');
    const noSlash = await sdkFailure(client.beta.memoryStores.memories.list(store.id, { path_prefix: '/a' }));
    expect(noSlash.error.error.message).toStartWith('path_prefix:');
  });

  test('versions: filters, pages, and redaction clearing content and path', async () => {
    const store = await newStore();
    const one = await create(store.id, '/one.md', 'secret 1');
    clock.advance(1000);
    await client.beta.memoryStores.memories.update(one.id, { memory_store_id: store.id, content: 'secret 2' });
    const two = await create(store.id, '/two.md', 'other');

    const listed = await client.beta.memoryStores.memoryVersions.list(store.id);
    expect(listed.data.map((v) => [v.memory_id, v.operation])).toEqual([
      [two.id, 'created'],
      [one.id, 'modified'],
      [one.id, 'created'],
    ]);
    expect(listed.data.every((v) => v.content === null && v.content_sha256 !== null)).toBe(true);
    const created = await client.beta.memoryStores.memoryVersions.list(store.id, { operation: 'created' });
    expect(created.data).toHaveLength(2);
    const keyId = (listed.data[0]!.created_by as { api_key_id: string }).api_key_id;
    expect((await client.beta.memoryStores.memoryVersions.list(store.id, { api_key_id: keyId })).data).toHaveLength(3);
    expect((await client.beta.memoryStores.memoryVersions.list(store.id, { api_key_id: 'key_someoneelse' })).data).toHaveLength(0);
    expect((await client.beta.memoryStores.memoryVersions.list(store.id, { session_id: 'sesn_none' })).data).toHaveLength(0);
    const since = listed.data[1]!.created_at;
    expect((await client.beta.memoryStores.memoryVersions.list(store.id, { 'created_at[gte]': since })).data).toHaveLength(2);
    const paged: string[] = [];
    for await (const v of client.beta.memoryStores.memoryVersions.list(store.id, { limit: 1 })) paged.push(v.id);
    expect(paged).toEqual(listed.data.map((v) => v.id));

    const firstVersion = listed.data[2]!;
    const got = await client.beta.memoryStores.memoryVersions.retrieve(firstVersion.id, { memory_store_id: store.id });
    expect(got).toMatchObject({ content: 'secret 1', path: '/one.md', redacted_at: null });
    expect(got).not.toHaveProperty('redacted_by');
    clock.advance(1000);
    const redacted = await client.beta.memoryStores.memoryVersions.redact(firstVersion.id, { memory_store_id: store.id });
    expectSdkShape(redacted, 'BetaManagedAgentsMemoryVersion');
    expect(redacted).toMatchObject({ content: null, path: null, content_sha256: null, content_size_bytes: null, redacted_at: clock.now().toISOString() });
    expect(redacted.redacted_by).toEqual(got.created_by);
    expect(redacted.created_by).toEqual(got.created_by);
    // Idempotent, and the memory itself is untouched.
    expect(await client.beta.memoryStores.memoryVersions.redact(firstVersion.id, { memory_store_id: store.id })).toEqual(redacted);
    expect((await client.beta.memoryStores.memories.retrieve(one.id, { memory_store_id: store.id })).content).toBe('secret 2');
  });

  test('an archived store reads but refuses writes; another tenant sees nothing; deleting the store deletes its memories', async () => {
    const store = await newStore();
    const memory = await create(store.id, '/kept.md', 'kept');
    await client.beta.memoryStores.archive(store.id);
    expect((await client.beta.memoryStores.memories.retrieve(memory.id, { memory_store_id: store.id })).content).toBe('kept');
    expect((await client.beta.memoryStores.memories.list(store.id)).data).toHaveLength(1);
    for (const write of [
      () => client.beta.memoryStores.memories.create(store.id, { path: '/new.md', content: '' }),
      () => client.beta.memoryStores.memories.update(memory.id, { memory_store_id: store.id, content: 'changed' }),
      () => client.beta.memoryStores.memories.delete(memory.id, { memory_store_id: store.id }),
    ]) {
      const failed = await sdkFailure(write());
      expect(failed.status).toBe(400);
      expect(failed.error.error.message).toContain('is archived');
    }

    for (const read of [
      () => otherClient.beta.memoryStores.memories.retrieve(memory.id, { memory_store_id: store.id }),
      () => otherClient.beta.memoryStores.memories.list(store.id),
      () => otherClient.beta.memoryStores.memoryVersions.list(store.id),
      () => otherClient.beta.memoryStores.memoryVersions.retrieve(memory.memory_version_id, { memory_store_id: store.id }),
      () => otherClient.beta.memoryStores.memories.create(store.id, { path: '/theirs.md', content: '' }),
      () => otherClient.beta.memoryStores.memories.delete(memory.id, { memory_store_id: store.id }),
      () => otherClient.beta.memoryStores.memoryVersions.redact(memory.memory_version_id, { memory_store_id: store.id }),
    ]) {
      expect((await sdkFailure(read())).status).toBe(404);
    }

    await client.beta.memoryStores.delete(store.id);
    expect((await sdkFailure(client.beta.memoryStores.memories.retrieve(memory.id, { memory_store_id: store.id }))).status).toBe(404);
    expect((await sdkFailure(client.beta.memoryStores.memoryVersions.retrieve(memory.memory_version_id, { memory_store_id: store.id }))).status).toBe(404);
  });
});

describe('the store limit', () => {
  test('a store holds at most 2,000 memories: the next create is a 400 saying so, and a delete makes room', async () => {
    const sdkClient = client;
    const store = await sdkClient.beta.memoryStores.create({ name: 'full' });
    const made: string[] = [];
    for (let batch = 0; batch < 40; batch++) {
      const created = await Promise.all(
        Array.from({ length: 50 }, (_, i) => sdkClient.beta.memoryStores.memories.create(store.id, { path: `/m/${batch}/${i}`, content: '' })),
      );
      made.push(...created.map((m) => m.id));
    }
    const failed = await sdkFailure(sdkClient.beta.memoryStores.memories.create(store.id, { path: '/one-more', content: '' }));
    expect(failed.status).toBe(400);
    expect(failed.error.error.message).toContain('2000 memories');
    await sdkClient.beta.memoryStores.memories.delete(made[0]!, { memory_store_id: store.id });
    await sdkClient.beta.memoryStores.memories.create(store.id, { path: '/one-more', content: '' });
  }, 120_000);
});
