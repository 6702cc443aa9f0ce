/**
 * Fixture builders for tests that need catalog resources, vaults and deployments. Everything
 * is made through the public HTTP routes, the way a client would, so tests exercise the real
 * services and never reach into another service's database.
 */
import { afterAll, beforeAll } from 'bun:test';
import { apiClient, type ApiClient } from './api';
import { expectOk } from './expect';
import { Stack, type StackOptions } from './stack';

/** Models shipped in services/catalog/models.json, by the property a test needs. */
export const MODELS = {
  /** Has a list price and accepts system.message. */
  priced: 'claude-opus-4-5',
  /** Has a list price but does not accept mid-conversation system messages. */
  noSystemMessages: 'claude-haiku-4-5',
  /** No public list price: budgets are refused. */
  unpriced: 'claude-private-preview',
} as const;

export async function createAgent(api: ApiClient, overrides: Record<string, unknown> = {}) {
  return expectOk(await api('POST', '/v1/agents', { body: { name: 'fixture agent', model: MODELS.priced, ...overrides } }), 'creating agent');
}

/** Updating an agent creates its next version. */
export async function createAgentVersion(api: ApiClient, agent: { id: string; version: number }, overrides: Record<string, unknown> = {}) {
  return expectOk(
    await api('POST', `/v1/agents/${agent.id}`, { body: { version: agent.version, system: `v${agent.version + 1}`, ...overrides } }),
    'creating agent version',
  );
}

export async function createEnvironment(api: ApiClient, overrides: Record<string, unknown> = {}) {
  return expectOk(
    await api('POST', '/v1/environments', { body: { name: 'fixture environment', config: { type: 'cloud' }, ...overrides } }),
    'creating environment',
  );
}

export async function uploadFile(api: ApiClient, name = 'notes.txt', content = 'fixture file content') {
  const form = new FormData();
  form.append('file', new File([content], name, { type: 'text/plain' }));
  return expectOk(await api('POST', '/v1/files', { rawBody: form }), 'creating file');
}

/** A form of a skill's files: `<name>/SKILL.md` with its front matter, plus whatever else is given. */
export function skillForm(name = 'fixture-skill', description = 'A fixture skill', more: Record<string, string> = {}, displayName?: string): FormData {
  const form = new FormData();
  form.append('files[]', new File([`---\nname: ${name}\ndescription: ${description}\n---\n`], `${name}/SKILL.md`));
  for (const [path, text] of Object.entries(more)) form.append('files[]', new File([text], `${name}/${path}`));
  if (displayName !== undefined) form.append('display_name', displayName);
  return form;
}

export async function createSkill(api: ApiClient, name?: string) {
  return expectOk(await api('POST', '/v1/skills', { rawBody: skillForm(name) }), 'creating skill');
}

export async function createMemoryStore(api: ApiClient, overrides: Record<string, unknown> = {}) {
  return expectOk(await api('POST', '/v1/memory_stores', { body: { name: 'fixture store', ...overrides } }), 'creating memory store');
}

export async function createVault(api: ApiClient, overrides: Record<string, unknown> = {}) {
  return expectOk(await api('POST', '/v1/vaults', { body: { display_name: 'fixture vault', ...overrides } }), 'creating vault');
}

const ARCHIVE_PATHS = {
  agent: (id: string) => `/v1/agents/${id}/archive`,
  environment: (id: string) => `/v1/environments/${id}/archive`,
  memory_store: (id: string) => `/v1/memory_stores/${id}/archive`,
  vault: (id: string) => `/v1/vaults/${id}/archive`,
} as const;

export async function archive(api: ApiClient, kind: keyof typeof ARCHIVE_PATHS, id: string) {
  const response = await api('POST', ARCHIVE_PATHS[kind](id));
  expectOk(response, `archive of ${kind} ${id}`);
}

/** The smallest valid initial event list. */
export const userMessage = (text = 'Summarise the overnight alerts') => ({
  type: 'user.message',
  content: [{ type: 'text', text }],
});

/** What a valid deployment needs in one tenant: an agent (priced model) and an environment. */
export interface DeploymentWorld {
  agent: any;
  environment: any;
  /** A complete, valid create body; tests spread their changes over it. */
  body: (overrides?: Record<string, unknown>) => Record<string, any>;
}

export async function deploymentWorld(api: ApiClient, agentOverrides: Record<string, unknown> = {}): Promise<DeploymentWorld> {
  const [agent, environment] = await Promise.all([createAgent(api, agentOverrides), createEnvironment(api)]);
  return {
    agent,
    environment,
    body: (overrides = {}) => ({
      name: 'nightly triage',
      agent: agent.id,
      environment_id: environment.id,
      initial_events: [userMessage()],
      ...overrides,
    }),
  };
}

/** Two unrelated tenants with a read-write key each: what every cross-tenant check needs. */
export async function twoTenants(stack: Stack) {
  const mine = await stack.createKey();
  const theirs = await stack.createKey();
  return { api: apiClient(stack.url, mine.secret), other: apiClient(stack.url, theirs.secret), mine, theirs };
}

/** What most deployment tests start from: a running stack, a new tenant's client and a deployment world in that tenant. */
export interface DeploymentStack {
  stack: Stack;
  api: ApiClient;
  world: DeploymentWorld;
}

/**
 * Starts what `start` builds in beforeAll and stops its stack in afterAll, for the whole test
 * file. The returned object is empty until then, so read its fields inside tests and hooks (or
 * in closures they call), never at module load. The file's own beforeAll hooks, registered
 * after this call, run after the stack is up.
 */
function useStarted<T extends { stack: Stack }>(start: () => Promise<T>): T {
  const started = {} as T;
  beforeAll(async () => {
    Object.assign(started, await start());
  });
  afterAll(() => started.stack?.stop());
  return started;
}

/** A DeploymentStack for the whole test file (see useStarted). */
export const useDeploymentStack = (options: StackOptions = {}): DeploymentStack =>
  useStarted(async () => {
    const stack = await Stack.start(options);
    const api = apiClient(stack.url, (await stack.createKey()).secret);
    return { stack, api, world: await deploymentWorld(api) };
  });

/** A stack for the whole test file (see useStarted). */
export const useStack = (options: StackOptions = {}) => useStarted(async () => ({ stack: await Stack.start(options) }));

/** A stack and twoTenants in it, for the whole test file (see useStarted). */
export const useTwoTenantStack = (options: StackOptions = {}) =>
  useStarted(async () => {
    const stack = await Stack.start(options);
    return { stack, ...(await twoTenants(stack)) };
  });

export async function createDeployment(api: ApiClient, body: Record<string, unknown>) {
  return expectOk(await api('POST', '/v1/deployments', { body }), 'creating deployment');
}

const DELETE_PATHS = {
  environment: (id: string) => `/v1/environments/${id}`,
  file: (id: string) => `/v1/files/${id}`,
  memory_store: (id: string) => `/v1/memory_stores/${id}`,
  vault: (id: string) => `/v1/vaults/${id}`,
} as const;

/** Deletes a catalog resource or a vault for good (what makes a deployment's reference dangle). */
export async function remove(api: ApiClient, kind: keyof typeof DELETE_PATHS, id: string) {
  expectOk(await api('DELETE', DELETE_PATHS[kind](id)), `delete of ${kind} ${id}`);
}

/** A repository resource as a request carries it, token included. */
export const repository = (fields: Record<string, unknown> = {}) => ({
  type: 'hosted_repository',
  url: 'https://github.com/acme/widgets.git',
  authorization_token: 'ghp_SECRET_do_not_leak_123',
  ...fields,
});
