/**
 * Values a careless or hostile client sends, through the real gateway and services (issue 10):
 * lone surrogates anywhere in a JSON body (item 5), ids that only match under a PAD SPACE
 * collation or in the wrong case (item 7), repository URLs and mount paths (item 15), and the
 * size limits the interface leaves open (item 2).
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import {
  createDeployment,
  createVault,
  repository,
  useDeploymentStack,
  userMessage,
} from '../support/fixtures';
import { expectInvalidRequest } from '../support/expect';

const t = useDeploymentStack();
let deploymentId: string;
let vaultId: string;
let credentialId: string;

beforeAll(async () => {
  deploymentId = (await createDeployment(t.api, t.world.body())).id;
  vaultId = (await createVault(t.api)).id;
  const credential = await t.api('POST', `/v1/vaults/${vaultId}/credentials`, {
    body: { display_name: 'ci', auth: { type: 'static_bearer', mcp_server_url: 'https://mcp.example.com', token: 't0k' } },
  });
  expect(credential.status).toBe(200);
  credentialId = credential.body.id;
});

/** A JSON body whose `LONE` marker is replaced by the escape `\ud800` (a lone high surrogate). */
const withLoneSurrogate = (body: unknown) => JSON.stringify(body).replaceAll('LONE', '\\ud800');

describe('lone surrogates are refused at validation (item 5)', () => {
  const cases: Array<[string, () => unknown, string]> = [
    ['a metadata value', () => t.world.body({ metadata: { team: 'oncall LONE' } }), 'metadata.team'],
    ['a metadata key', () => t.world.body({ metadata: { 'teamLONE': 'oncall' } }), 'metadata'],
    ['event text', () => t.world.body({ initial_events: [userMessage('hello LONE')] }), 'initial_events.0.content.0.text'],
    ['a repository URL', () => t.world.body({ resources: [repository({ url: 'https://github.com/acme/LONE.git', mount_path: '/workspace/w' })] }), 'resources.0.url'],
  ];
  for (const [where, body, path] of cases) {
    test(`in ${where}: 400 naming the field`, async () => {
      const response = await t.api('POST', '/v1/deployments', {
        rawBody: withLoneSurrogate(body()),
        headers: { 'content-type': 'application/json' },
      });
      expectInvalidRequest(response, `${path}:`);
      expect(response.body.error.message).toContain('surrogate');
    });
  }

  test('a vault display name and the update path too', async () => {
    const vault = await t.api('POST', '/v1/vaults', {
      rawBody: withLoneSurrogate({ display_name: 'vault LONE' }),
      headers: { 'content-type': 'application/json' },
    });
    expectInvalidRequest(vault, 'display_name:');
    const update = await t.api('POST', `/v1/deployments/${deploymentId}`, {
      rawBody: withLoneSurrogate({ metadata: { k: 'LONE' } }),
      headers: { 'content-type': 'application/json' },
    });
    expectInvalidRequest(update, 'metadata.k:');
  });

  test('a well-formed pair (an emoji) is stored and echoed', async () => {
    const deployment = await createDeployment(t.api, t.world.body({ metadata: { mood: 'ok \u{1F600}' } }));
    expect(deployment.metadata.mood).toBe('ok \u{1F600}');
  });
});

describe('ids match exactly, checked before any lookup (item 7)', () => {
  const itemRoutes = () => [
    `/v1/deployments/${deploymentId}`,
    `/v1/vaults/${vaultId}`,
    `/v1/vaults/${vaultId}/credentials/${credentialId}`,
    `/v1/agents/${t.world.agent.id}`,
    `/v1/environments/${t.world.environment.id}`,
  ];

  test('the real ids are served', async () => {
    for (const path of itemRoutes()) expect((await t.api('GET', path)).status).toBe(200);
  });

  for (const [label, mangle] of [
    ['trailing space', (id: string) => `${id}%20`],
    ['trailing tab', (id: string) => `${id}%09`],
    ['upper-case prefix', (id: string) => id.replace(/^[a-z]+_/, (p) => p.toUpperCase())],
    ['flipped case of the random part', (id: string) => id.slice(0, -1) + (id.at(-1) === id.at(-1)!.toUpperCase() ? id.at(-1)!.toLowerCase() : id.at(-1)!.toUpperCase())],
  ] as const) {
    test(`${label}: 404, never the resource`, async () => {
      for (const path of itemRoutes()) {
        const id = path.split('/').pop()!;
        const mangled = path.slice(0, -id.length) + mangle(id);
        if (mangled === path) continue; // a digit has no case
        const response = await t.api('GET', mangled);
        expect({ path: mangled, status: response.status }).toEqual({ path: mangled, status: 404 });
        expect(response.body.error.type).toBe('not_found_error');
      }
    });
  }

  test('a path id that is not valid percent-encoding: 404 with the envelope, never 500', async () => {
    for (const bad of ['%FF', '%', '%E0%A4', '%C0%AF', '%ED%A0%80']) {
      for (const path of [`/v1/deployments/${bad}`, `/v1/vaults/${vaultId}/credentials/${bad}`, `/v1/agents/${bad}`, `/v1/models/${bad}`]) {
        const response = await t.api('GET', path);
        expect({ path, status: response.status, type: response.body.error?.type }).toEqual({ path, status: 404, type: 'not_found_error' });
      }
    }
  });

  test('a foreign prefix with the same random part: 404', async () => {
    const body = deploymentId.slice('depl_'.length);
    expect((await t.api('GET', `/v1/deployments/vlt_${body}`)).status).toBe(404);
    expect((await t.api('GET', `/v1/vaults/depl_${body}`)).status).toBe(404);
  });

  test('a mutation through a padded id touches nothing', async () => {
    expect((await t.api('POST', `/v1/deployments/${deploymentId}%20/pause`)).status).toBe(404);
    expect((await t.api('GET', `/v1/deployments/${deploymentId}`)).body.status).toBe('active');
    expect((await t.api('DELETE', `/v1/vaults/${vaultId}%20`)).status).toBe(404);
    expect((await t.api('GET', `/v1/vaults/${vaultId}`)).status).toBe(200);
  });

  test('body references with padding or the wrong case are not found', async () => {
    const padded = await t.api('POST', '/v1/deployments', { body: t.world.body({ environment_id: `${t.world.environment.id} ` }) });
    expect(padded.status).toBe(404);
    expect(padded.body.error.message).toContain('environment_id');
    const agent = await t.api('POST', '/v1/deployments', { body: t.world.body({ agent: `${t.world.agent.id}\t` }) });
    expect(agent.status).toBe(404);
    const vault = await t.api('POST', '/v1/deployments', { body: t.world.body({ vault_ids: [`${vaultId} `] }) });
    expect(vault.status).toBe(404);
    expect(vault.body.error.message).toContain('vault_ids.0');
    const upper = await t.api('POST', '/v1/deployments', { body: t.world.body({ vault_ids: [vaultId.toUpperCase()] }) });
    expect(upper.status).toBe(404);
  });

  test('an id filter that is not an id is an invalid filter value: 400 naming it', async () => {
    expectInvalidRequest(await t.api('GET', '/v1/deployments', { query: { agent_id: `${t.world.agent.id} ` } }), 'agent_id:');
    expectInvalidRequest(await t.api('GET', '/v1/deployment_runs', { query: { deployment_id: deploymentId.toUpperCase() } }), 'deployment_id:');
    expectInvalidRequest(await t.api('GET', '/v1/sessions', { query: { deployment_id: `${deploymentId}\t` } }), 'deployment_id:');
  });

  test('id references get the length limit of the ids they name', async () => {
    expectInvalidRequest(await t.api('POST', '/v1/deployments', { body: t.world.body({ vault_ids: ['v'.repeat(129)] }) }), 'vault_ids.0:');
    expectInvalidRequest(
      await t.api('POST', '/v1/deployments', {
        body: t.world.body({ resources: [{ type: 'memory_store', memory_store_id: `memstore_${'m'.repeat(120)}` }] }),
      }),
      'resources.0.memory_store_id:',
    );
  });
});

describe('repository resources (item 15)', () => {
  const create = (resource: Record<string, unknown>) => t.api('POST', '/v1/deployments', { body: t.world.body({ resources: [resource] }) });

  test('the url must be https without credentials', async () => {
    for (const url of [
      'http://github.com/acme/widgets.git',
      'ftp://github.com/acme/widgets.git',
      'git@github.com:acme/widgets.git',
      'file:///etc/passwd',
      'https://user:pass@github.com/acme/widgets.git',
      'https://ghp_token@github.com/acme/widgets.git',
      'https://evil.example\\@github.com/acme/widgets.git',
      'https:///acme/widgets.git',
      'https://github.com/acme/wid gets.git',
    ]) {
      const response = await create(repository({ url, mount_path: '/workspace/w' }));
      expect({ url, status: response.status }).toEqual({ url, status: 400 });
      expect(response.body.error.message.startsWith('resources.0.url:')).toBe(true);
    }
    expect((await create(repository({ url: 'https://github.com:443/acme/widgets.git?x=1' }))).status).toBe(200);
  });

  test('mount_path: absolute, no .. segments, no control characters', async () => {
    for (const mount_path of ['workspace/x', './x', '/a/../b', '/a/..', '..', '/a/b\u0000c', '~/x', '/a\nb', '/a\u001bb']) {
      const response = await create(repository({ mount_path }));
      expect({ mount_path, status: response.status }).toEqual({ mount_path, status: 400 });
      expect(response.body.error.message.startsWith('resources.0.mount_path:')).toBe(true);
    }
    const file = await t.api('POST', '/v1/deployments', {
      body: t.world.body({ resources: [{ type: 'file', file_id: 'file_missing', mount_path: '/x/../../etc' }] }),
    });
    expectInvalidRequest(file, 'resources.0.mount_path:');
  });

  test('mount_path: only under /workspace/ or /mnt/session/ (issue 24: / and /proc/self were accepted)', async () => {
    for (const mount_path of ['/', '/proc/self', '/etc', '/workspace', '/mnt/session/.', '/tmp/x']) {
      const response = await create(repository({ mount_path }));
      expect({ mount_path, status: response.status }).toEqual({ mount_path, status: 400 });
      expect(response.body.error.message).toStartWith('resources.0.mount_path:');
      expect(response.body.error.message).toContain('under /workspace/ or /mnt/session/');
    }
    const file = await t.api('POST', '/v1/deployments', { body: t.world.body({ resources: [{ type: 'file', file_id: 'file_missing', mount_path: '/proc/self' }] }) });
    expectInvalidRequest(file, 'resources.0.mount_path');
    expect((await create(repository({ mount_path: '/mnt/session/src' }))).status).toBe(200);
  });

  test('a mount path is stored normalised, and duplicates compare after normalisation', async () => {
    const deployment = await createDeployment(t.api, t.world.body({ resources: [repository({ mount_path: '/workspace/x/./y//z/' })] }));
    expect(deployment.resources[0].mount_path).toBe('/workspace/x/y/z');
    const duplicate = await t.api('POST', '/v1/deployments', {
      body: t.world.body({ resources: [repository({ mount_path: '/workspace/x/./y' }), repository({ mount_path: '/workspace/x/y' })] }),
    });
    expectInvalidRequest(duplicate, 'resources.1.mount_path:');
    expect(duplicate.body.error.message).toContain('resources.0');
  });
});

describe('size limits where the interface is silent (item 2)', () => {
  const text = (n: number) => 'a'.repeat(n);
  test('a text block holds at most 262144 characters', async () => {
    expect((await t.api('POST', '/v1/deployments', { body: t.world.body({ initial_events: [userMessage(text(262144))] }) })).status).toBe(200);
    expectInvalidRequest(
      await t.api('POST', '/v1/deployments', { body: t.world.body({ initial_events: [userMessage(text(262145))] }) }),
      'initial_events.0.content.0.text:',
    );
  });

  test('a user.message holds at most 100 content blocks', async () => {
    const blocks = (n: number) => Array.from({ length: n }, () => ({ type: 'text', text: 'x' }));
    const event = (n: number) => ({ type: 'user.message', content: blocks(n) });
    expect((await t.api('POST', '/v1/deployments', { body: t.world.body({ initial_events: [event(100)] }) })).status).toBe(200);
    expectInvalidRequest(await t.api('POST', '/v1/deployments', { body: t.world.body({ initial_events: [event(101)] }) }), 'initial_events.0.content:');
  });

  test('the outcome description is bounded like a text block', async () => {
    const outcome = (n: number) => ({ type: 'user.define_outcome', description: text(n), rubric: { type: 'text', content: 'ok' } });
    expectInvalidRequest(await t.api('POST', '/v1/deployments', { body: t.world.body({ initial_events: [outcome(262145)] }) }), 'initial_events.0.description:');
  });

  test('initial_events together hold at most 2 MiB, resources at most 1 MiB', async () => {
    const nine = Array.from({ length: 9 }, () => userMessage(text(250_000)));
    const events = await t.api('POST', '/v1/deployments', { body: t.world.body({ initial_events: nine }) });
    expectInvalidRequest(events, 'initial_events:');
    expect(events.body.error.message).toContain('2097152 bytes');
    // 300 repositories of 4 KB each (URL and token): within every per-field limit, 1.2 MB together.
    const many = Array.from({ length: 300 }, (_, i) =>
      repository({ url: `https://github.com/acme/${text(2000)}.git`, authorization_token: text(2000), mount_path: `/workspace/w/${i}` }),
    );
    const resources = await t.api('POST', '/v1/deployments', { body: t.world.body({ resources: many }) });
    expectInvalidRequest(resources, 'resources:');
    expect(resources.body.error.message).toContain('1048576 bytes');
    const update = await t.api('POST', `/v1/deployments/${deploymentId}`, { body: { initial_events: nine } });
    expectInvalidRequest(update, 'initial_events:');
  });
});
