/**
 * The OpenAPI document against the live gateway (real MariaDB, NATS, HTTP): it is valid OpenAPI
 * 3.1 by an independent validator, it lists exactly the routes the gateway's router serves, and
 * for every operation it lists, requests built from it (a valid example, then the same without
 * credentials, with a stray query parameter, with unknown ids of the right form, with a body
 * that breaks the schema) are answered with a status the document gives that operation and a
 * body its schema for that status accepts (ajv, on the schemas as the document carries them).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { apiClient, VERSION_HEADERS, type ApiClient } from '../support/api';
import { eventually } from '../support/eventually';
import { expectOk } from '../support/expect';
import { FakeModelApi } from '../support/fake-model-api';
import {
  createAgent,
  createDeployment,
  createEnvironment,
  createMemoryStore,
  createSkill,
  skillForm,
  createVault,
  deploymentWorld,
  MODELS,
  repository,
  uploadFile,
  userMessage,
  type DeploymentWorld,
} from '../support/fixtures';
import { ALL_BACKEND_SERVICES, Stack } from '../support/stack';

type Json = any;

/** One request to an operation; `params` names its path parameters. */
interface ExampleRequest {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  form?: FormData;
  headers?: Record<string, string>;
}

interface Operation {
  method: string;
  path: string;
  spec: Json;
  /** An API route (credentials, `beta`, versioning headers); else open to anyone. */
  api: boolean;
}

let stack: Stack;
let model: FakeModelApi;
let key: string;
let api: ApiClient;
let document: Json;
let world: DeploymentWorld;
/** The path parameters of real resources of the test's tenant, by name. */
const ids: Record<string, string> = {};

beforeAll(async () => {
  model = FakeModelApi.start();
  // The runtime serves the environments' work queues; its model is a local script whose only
  // reply is the tool call that queues the one work item below (later model calls fail, which
  // only ends those sessions' turns).
  stack = await Stack.start({
    services: ALL_BACKEND_SERVICES,
    env: { LOG_LEVEL: 'error' },
    serviceEnv: { runtime: { MODEL_API_BASE_URL: model.url, MODEL_API_KEY: 'sk-test-model-key', MODEL_RETRY_BASE_MS: '10', MODEL_MAX_RETRIES: '0' } },
  });
  key = (await stack.createKey()).secret;
  api = apiClient(stack.url, key);
  document = await (await fetch(`${stack.url}/v1/openapi.json`)).json();

  model.reply({
    content: [{ type: 'tool_use', id: 'toolu_openapi', name: 'bash', input: { command: 'true' } }],
    stop_reason: 'tool_use',
    usage: { input_tokens: 10, output_tokens: 5 },
  });
  const workAgent = await createAgent(api, { tools: [{ type: 'agent_toolset_20260401' }] });
  const selfHosted = await createEnvironment(api, { config: { type: 'self_hosted' } });
  const workSession = expectOk(
    await api('POST', '/v1/sessions', { body: { agent: workAgent.id, environment_id: selfHosted.id, initial_events: [userMessage('Run it')] } }),
  );
  const work = await eventually('the work item of the tool call', async () => {
    const page = expectOk(await api('GET', `/v1/environments/${selfHosted.id}/work`));
    return page.data.find((item: Json) => item.data.id === workSession.id);
  });

  world = await deploymentWorld(api);
  const file = await uploadFile(api);
  const store = await createMemoryStore(api);
  const memory = expectOk(await api('POST', `/v1/memory_stores/${store.id}/memories`, { body: { path: '/openapi/notes.md', content: 'first' } }));
  const skill = await createSkill(api);
  const vault = await createVault(api);
  const credential = expectOk(await api('POST', `/v1/vaults/${vault.id}/credentials`, { body: credentialBody('main') }));
  const deployment = await createDeployment(api, world.body());
  const run = expectOk(await api('POST', `/v1/deployments/${deployment.id}/run`));
  const session = expectOk(await api('POST', '/v1/sessions', { body: { agent: world.agent.id, environment_id: world.environment.id } }));
  const resource = expectOk(await api('POST', `/v1/sessions/${session.id}/resources`, { body: repository() }));
  // Two events at least, so a stream resumed after the first has one to replay.
  expectOk(await api('POST', `/v1/sessions/${session.id}/events`, { body: { events: [userMessage('first'), userMessage('second')] } }));

  Object.assign(ids, {
    model_id: MODELS.priced,
    agent_id: workAgent.id,
    environment_id: selfHosted.id,
    work_id: work.id,
    file_id: file.id,
    memory_store_id: store.id,
    memory_id: memory.id,
    memory_version_id: memory.memory_version_id,
    skill_id: skill.id,
    version: skill.latest_version_id,
    vault_id: vault.id,
    credential_id: credential.id,
    deployment_id: deployment.id,
    deployment_run_id: run.id,
    session_id: session.id,
    resource_id: resource.id,
  });
}, 120_000);

afterAll(async () => {
  await stack?.stop();
  model?.stop();
});

const credentialBody = (target: string) => ({
  auth: { type: 'static_bearer', token: `tok-${target}`, mcp_server_url: `https://mcp.example.com/${target}` },
});
const firstEventId = async (sessionId: string) => expectOk(await api('GET', `/v1/sessions/${sessionId}/events`)).data[0].id as string;

type Example = [operation: string, request: () => Promise<ExampleRequest> | ExampleRequest];

/**
 * The examples of a resource's six operations, in this order: create, list, read, update, then
 * archive and delete, each of those two on one made for it (`fresh` is told which, as its name).
 */
function resourceExamples(
  collection: string,
  idName: string,
  examples: { create: () => ExampleRequest; update: () => ExampleRequest; fresh: (ending: 'archived' | 'deleted') => Promise<string> },
): Example[] {
  const one = `${collection}/{${idName}}`;
  return [
    [`POST ${collection}`, examples.create],
    [`GET ${collection}`, () => ({})],
    [`GET ${one}`, () => ({})],
    [`POST ${one}`, examples.update],
    [`POST ${one}/archive`, async () => ({ params: { [idName]: await examples.fresh('archived') } })],
    [`DELETE ${one}`, async () => ({ params: { [idName]: await examples.fresh('deleted') } })],
  ];
}

/**
 * A valid request for every operation, in an order that keeps each valid for the state the ones
 * before it leave (a work item is polled, acknowledged, heartbeaten, stopped). Operations that
 * end a resource act on one made for them. Every operation of the document must be here.
 */
const EXAMPLES: Example[] = [
  ['GET /healthz', () => ({})],
  ['GET /readyz', () => ({})],
  ['GET /v1/openapi.json', () => ({})],
  ['GET /docs', () => ({})],
  ['GET /v1/models', () => ({ query: { limit: '2' } })],
  ['GET /v1/models/{model_id}', () => ({})],

  ['POST /v1/agents', () => ({ body: { name: 'openapi agent', model: MODELS.priced } })],
  ['GET /v1/agents', () => ({ query: { include_archived: 'true' } })],
  ['GET /v1/agents/{agent_id}', () => ({ query: { version: '1' } })],
  ['POST /v1/agents/{agent_id}', async () => ({ params: { agent_id: (await createAgent(api)).id }, body: { version: 1, description: 'updated' } })],
  ['POST /v1/agents/{agent_id}/archive', async () => ({ params: { agent_id: (await createAgent(api)).id } })],
  ['GET /v1/agents/{agent_id}/versions', () => ({})],

  ...resourceExamples('/v1/environments', 'environment_id', {
    create: () => ({ body: { name: 'openapi environment', config: { type: 'cloud' } } }),
    update: () => ({ body: { description: 'updated' } }),
    fresh: async () => (await createEnvironment(api)).id,
  }),

  ['GET /v1/environments/{environment_id}/work/poll', () => ({})],
  ['GET /v1/environments/{environment_id}/work/stats', () => ({})],
  ['GET /v1/environments/{environment_id}/work', () => ({ query: { limit: '5' } })],
  ['GET /v1/environments/{environment_id}/work/{work_id}', () => ({})],
  ['POST /v1/environments/{environment_id}/work/{work_id}', () => ({ body: { metadata: { stage: 'openapi' } } })],
  ['POST /v1/environments/{environment_id}/work/{work_id}/ack', () => ({})],
  ['POST /v1/environments/{environment_id}/work/{work_id}/heartbeat', () => ({ query: { desired_ttl_seconds: '60' } })],
  ['POST /v1/environments/{environment_id}/work/{work_id}/stop', () => ({ body: { force: true } })],

  [
    'POST /v1/files',
    () => {
      const form = new FormData();
      form.append('file', new File(['openapi'], 'openapi.txt', { type: 'text/plain' }));
      return { form };
    },
  ],
  ['GET /v1/files', () => ({})],
  ['GET /v1/files/{file_id}', () => ({})],
  ['GET /v1/files/{file_id}/content', () => ({})],
  ['DELETE /v1/files/{file_id}', async () => ({ params: { file_id: (await uploadFile(api)).id } })],

  ...resourceExamples('/v1/memory_stores', 'memory_store_id', {
    create: () => ({ body: { name: 'openapi store' } }),
    update: () => ({ body: { description: 'updated' } }),
    fresh: async () => (await createMemoryStore(api)).id,
  }),
  ['POST /v1/memory_stores/{memory_store_id}/memories', () => ({ query: { view: 'full' }, body: { path: '/openapi/created.md', content: 'made' } })],
  ['GET /v1/memory_stores/{memory_store_id}/memories', () => ({ query: { path_prefix: '/openapi/', depth: '1' } })],
  ['GET /v1/memory_stores/{memory_store_id}/memories/{memory_id}', () => ({ query: { view: 'basic' } })],
  ['POST /v1/memory_stores/{memory_store_id}/memories/{memory_id}', () => ({ body: { content: 'second' } })],
  ['GET /v1/memory_stores/{memory_store_id}/memory_versions', () => ({ query: { operation: 'created' } })],
  ['GET /v1/memory_stores/{memory_store_id}/memory_versions/{memory_version_id}', () => ({})],
  ['POST /v1/memory_stores/{memory_store_id}/memory_versions/{memory_version_id}/redact', () => ({})],
  ['DELETE /v1/memory_stores/{memory_store_id}/memories/{memory_id}', () => ({})],

  ['POST /v1/skills', () => ({ form: skillForm('openapi-skill', 'Made by the document check', { 'run.sh': 'echo hi' }, 'OpenAPI skill') })],
  ['GET /v1/skills', () => ({ query: { source: 'custom' } })],
  ['GET /v1/skills/{skill_id}', () => ({})],
  ['POST /v1/skills/{skill_id}/versions', () => ({ form: skillForm() })],
  ['GET /v1/skills/{skill_id}/versions', () => ({ query: { limit: '5' } })],
  ['GET /v1/skills/{skill_id}/versions/{version}', () => ({})],
  ['GET /v1/skills/{skill_id}/versions/{version}/content', () => ({})],
  ['DELETE /v1/skills/{skill_id}/versions/{version}', () => ({})],
  ['DELETE /v1/skills/{skill_id}', async () => ({ params: { skill_id: (await createSkill(api)).id } })],

  ...resourceExamples('/v1/vaults', 'vault_id', {
    create: () => ({ body: { display_name: 'openapi vault' } }),
    update: () => ({ body: { display_name: 'renamed' } }),
    fresh: async () => (await createVault(api)).id,
  }),
  ...resourceExamples('/v1/vaults/{vault_id}/credentials', 'credential_id', {
    create: () => ({ body: credentialBody('created') }),
    update: () => ({ body: { display_name: 'renamed' } }),
    fresh: newCredential,
  }),
  // An mcp_oauth credential whose server never resolves (.invalid): the probe answers `unknown` at once.
  [
    'POST /v1/vaults/{vault_id}/credentials/{credential_id}/mcp_oauth_validate',
    async () => {
      const auth = { type: 'mcp_oauth', access_token: 'openapi-access', mcp_server_url: `https://mcp.invalid/${crypto.randomUUID()}` };
      return { params: { credential_id: expectOk(await api('POST', `/v1/vaults/${ids.vault_id}/credentials`, { body: { auth } })).id } };
    },
  ],

  ['GET /v1/deployments', () => ({ query: { status: 'active' } })],
  ['POST /v1/deployments', () => ({ body: world.body({ schedule: { type: 'cron', expression: '0 9 * * *', timezone: 'UTC' } }) })],
  ['GET /v1/deployments/{deployment_id}', () => ({})],
  ['POST /v1/deployments/{deployment_id}', () => ({ body: { name: 'renamed' } })],
  ['POST /v1/deployments/{deployment_id}/pause', async () => ({ params: { deployment_id: (await createDeployment(api, world.body())).id } })],
  ['POST /v1/deployments/{deployment_id}/unpause', async () => ({ params: { deployment_id: await pausedDeployment() } })],
  ['POST /v1/deployments/{deployment_id}/archive', async () => ({ params: { deployment_id: (await createDeployment(api, world.body())).id } })],
  ['POST /v1/deployments/{deployment_id}/run', () => ({})],
  ['GET /v1/deployment_runs', () => ({ query: { trigger_type: 'manual' } })],
  ['GET /v1/deployment_runs/{deployment_run_id}', () => ({})],

  ['GET /v1/sessions', () => ({ query: { order: 'asc' } })],
  ['POST /v1/sessions', () => ({ body: { agent: world.agent.id, environment_id: world.environment.id, title: 'openapi' } })],
  ['GET /v1/sessions/{session_id}', () => ({})],
  ['POST /v1/sessions/{session_id}', () => ({ body: { title: 'renamed' } })],
  ['POST /v1/sessions/{session_id}/archive', async () => ({ params: { session_id: await newSession() } })],
  ['DELETE /v1/sessions/{session_id}', async () => ({ params: { session_id: await newSession() } })],
  ['GET /v1/sessions/{session_id}/resources', () => ({})],
  ['POST /v1/sessions/{session_id}/resources', () => ({ body: repository({ url: 'https://github.com/acme/gadgets.git' }) })],
  ['GET /v1/sessions/{session_id}/resources/{resource_id}', () => ({})],
  ['POST /v1/sessions/{session_id}/resources/{resource_id}', () => ({ body: { authorization_token: 'ghp_rotated_openapi' } })],
  [
    'DELETE /v1/sessions/{session_id}/resources/{resource_id}',
    async () => {
      const file = await uploadFile(api);
      const added = expectOk(await api('POST', `/v1/sessions/${ids.session_id}/resources`, { body: { type: 'file', file_id: file.id } }));
      return { params: { resource_id: added.id } };
    },
  ],
  ['GET /v1/sessions/{session_id}/events', () => ({ query: { limit: '10' } })],
  ['POST /v1/sessions/{session_id}/events', () => ({ body: { events: [userMessage('hello')] } })],
  ['GET /v1/sessions/{session_id}/events/stream', async () => ({ headers: { 'last-event-id': await firstEventId(ids.session_id!) } })],
];

async function newCredential(target: string): Promise<string> {
  return expectOk(await api('POST', `/v1/vaults/${ids.vault_id}/credentials`, { body: credentialBody(target) })).id;
}
async function pausedDeployment(): Promise<string> {
  const deployment = await createDeployment(api, world.body());
  expectOk(await api('POST', `/v1/deployments/${deployment.id}/pause`));
  return deployment.id;
}
async function newSession(): Promise<string> {
  return expectOk(await api('POST', '/v1/sessions', { body: { agent: world.agent.id, environment_id: world.environment.id } })).id;
}

function operations(): Operation[] {
  return Object.entries(document.paths as Record<string, Record<string, Json>>).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, spec]) => {
      const open = Array.isArray(spec.security) && spec.security.length === 0;
      return { method: method.toUpperCase(), path, spec, api: !open };
    }),
  );
}
const operationNamed = (name: string) => operations().find((o) => `${o.method} ${o.path}` === name);

/** Sends one request built from an operation: `beta=true` and the versioning headers on API routes, the key unless `key` is null. */
async function send(operation: Operation, request: ExampleRequest, options: { key?: string | null } = {}): Promise<Response> {
  const path = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(request.params?.[name] ?? ids[name] ?? ''));
  const url = new URL(path, stack.url);
  if (operation.api) url.searchParams.set('beta', 'true');
  for (const [name, value] of Object.entries(request.query ?? {})) url.searchParams.append(name, value);
  const headers: Record<string, string> = operation.api ? { ...VERSION_HEADERS } : {};
  const apiKey = options.key === undefined ? key : options.key;
  if (operation.api && apiKey) headers['x-api-key'] = apiKey;
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  Object.assign(headers, request.headers);
  const body = request.form ?? (request.body === undefined ? undefined : JSON.stringify(request.body));
  return fetch(url, { method: operation.method, headers, body });
}

/** A JSON pointer segment inside a URI fragment. */
const pointer = (...segments: string[]) => segments.map((s) => encodeURIComponent(s.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');

/**
 * Checks answers against the document. Its component schemas are loaded into ajv (JSON Schema
 * 2020-12, the dialect of OpenAPI 3.1) as one schema whose `$defs` they are, and each response's
 * schema is compiled with its references pointed there.
 */
class DocumentedAnswers {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(private readonly doc: Json) {
    addFormats(this.ajv);
    this.ajv.addSchema(this.repoint({ $id: 'components.json', $defs: doc.components.schemas }));
  }

  private repoint(schema: Json): Json {
    return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', '"components.json#/$defs/'));
  }

  private validator(at: string, schema: Json): ValidateFunction {
    let validate = this.compiled.get(at);
    if (!validate) this.compiled.set(at, (validate = this.ajv.compile(this.repoint(schema))));
    return validate;
  }

  private response(operation: Operation, status: number): { at: string; response: Json } | undefined {
    const documented = operation.spec.responses[String(status)];
    if (!documented) return undefined;
    if (typeof documented.$ref !== 'string') {
      return { at: pointer('paths', operation.path, operation.method.toLowerCase(), 'responses', String(status)), response: documented };
    }
    const name = documented.$ref.split('/').at(-1);
    return { at: pointer('components', 'responses', name), response: this.doc.components.responses[name] };
  }

  /** What is wrong with an answer, or undefined when the document describes it. Reads the body (an event stream: up to its first event). */
  async problem(operation: Operation, res: Response): Promise<string | undefined> {
    const name = `${operation.method} ${operation.path}`;
    const documented = this.response(operation, res.status);
    if (!documented) return `${name}: ${res.status} is not documented (${(await res.text()).slice(0, 300)})`;
    const content: Record<string, Json> | undefined = documented.response.content;
    const mediaType = (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
    if (!content) {
      const text = await res.text();
      return text === '' ? undefined : `${name}: ${res.status} is documented without a body, got ${text.slice(0, 200)}`;
    }
    const documentedType = content[mediaType] ? mediaType : content['*/*'] ? '*/*' : undefined;
    if (!documentedType) return `${name}: ${res.status} came as ${mediaType || 'no content type'}, documented as ${Object.keys(content).join(', ')}`;
    const media = content[documentedType];
    if (documentedType === 'text/event-stream') return this.streamProblem(name, `${documented.at}/content/${pointer(documentedType)}`, media, res);
    const text = await res.text();
    if (documentedType !== 'application/json') return text.length > 0 ? undefined : `${name}: ${res.status} has an empty ${mediaType} body`;
    const validate = this.validator(`${documented.at}/content/${pointer(documentedType)}`, media.schema);
    if (validate(JSON.parse(text))) return undefined;
    return `${name}: ${res.status} body does not match its documented schema: ${this.ajv.errorsText(validate.errors, { separator: '; ' }).slice(0, 800)}`;
  }

  /** An event stream: the first event's data must match the documented item schema; then the stream is closed. */
  private async streamProblem(name: string, at: string, media: Json, res: Response): Promise<string | undefined> {
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let buffered = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return `${name}: the stream ended before its first event`;
        buffered += decoder.decode(value, { stream: true });
        const frames = buffered.split('\n\n');
        buffered = frames.pop()!;
        const data = frames.map((frame) => frame.split('\n').find((line) => line.startsWith('data: '))).find((line) => line !== undefined);
        if (data === undefined) continue;
        const validate = this.validator(`${at}/x-itemSchema`, media['x-itemSchema']);
        if (validate(JSON.parse(data.slice('data: '.length)))) return undefined;
        return `${name}: a streamed event does not match its documented schema: ${this.ajv.errorsText(validate.errors, { separator: '; ' }).slice(0, 800)}`;
      }
    } finally {
      await reader.cancel();
    }
  }
}

describe('the OpenAPI document', () => {
  test('is served without credentials or versioning headers, and is valid OpenAPI 3.1', async () => {
    const res = await fetch(`${stack.url}/v1/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    const validator = new Validator();
    const result = await validator.validate((await res.json()) as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  test('lists exactly the routes the gateway serves', () => {
    const served = stack.gateway.routes.map(({ method, path }) => `${method} ${path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}')}`);
    const documented = operations().map(({ method, path }) => `${method} ${path}`);
    expect(new Set(served).size).toBe(served.length);
    expect(documented.toSorted()).toEqual(served.toSorted());
  });

  test('the reference page at /docs shows every operation and schema, with nothing loaded from elsewhere', async () => {
    const res = await fetch(`${stack.url}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const page = await res.text();
    for (const { path } of operations()) expect(page).toContain(`<code>${path}</code>`);
    for (const name of Object.keys(document.components.schemas)) expect(page).toContain(`id="schema-${name}"`);
    expect(page).not.toMatch(/<script|<link|\bsrc=|@import|url\(/i);
    expect(page).not.toMatch(/href="(https?:)?\/\//i);
  });

  test('has a valid example request below for every operation', () => {
    expect(EXAMPLES.map(([name]) => name).toSorted()).toEqual(operations().map(({ method, path }) => `${method} ${path}`).toSorted());
  });
});

describe('every operation answers as its document says', () => {
  test('a valid request, and variations of it that must be refused', async () => {
    const answers = new DocumentedAnswers(document);
    const problems: string[] = [];
    const expectStatus = async (operation: Operation, what: string, res: Response, status: number) => {
      if (res.status !== status) problems.push(`${operation.method} ${operation.path} ${what}: expected ${status}, got ${res.status}`);
      const problem = await answers.problem(operation, res);
      if (problem) problems.push(`${problem} [${what}]`);
    };

    for (const [name, example] of EXAMPLES) {
      const operation = operationNamed(name);
      if (!operation) continue; // reported by the test above
      const request = await example();
      if (operation.api) {
        await expectStatus(operation, 'without credentials', await send(operation, request, { key: null }), 401);
        await expectStatus(operation, 'with a stray query parameter', await send(operation, { ...request, query: { ...request.query, openapi_probe: '1' } }), 400);
        if (operation.spec.requestBody?.content['application/json']) {
          await expectStatus(operation, 'with a body its schema refuses', await send(operation, { ...request, body: { openapi_probe: true } }), 400);
        }
        const unknownIds = unknownIdsOf(operation);
        if (Object.keys(unknownIds).length > 0) {
          await expectStatus(operation, 'with unknown ids', await send(operation, { ...request, params: unknownIds }), UNKNOWN_ID_STATUS[name] ?? 404);
        }
      }
      await expectStatus(operation, 'valid', await send(operation, request), VALID_STATUS[name] ?? 200);
    }
    expect(problems).toEqual([]);
  }, 120_000);
});

/**
 * What an operation answers for ids of the right form that name nothing, where that is not 404:
 * the runtime keeps work queues by environment id without knowing the catalog's environments, so
 * an unknown environment's queue is an empty one.
 */
/**
 * What a valid request answers when it is not 200. Every file is an upload, and uploads are not
 * downloadable (issue 24, SDK FileNotDownloadableError): the download route refuses them with 400.
 */
const VALID_STATUS: Record<string, number> = {
  'GET /v1/files/{file_id}/content': 400,
};

const UNKNOWN_ID_STATUS: Record<string, number> = {
  'GET /v1/environments/{environment_id}/work/poll': 204,
  'GET /v1/environments/{environment_id}/work/stats': 200,
  'GET /v1/environments/{environment_id}/work': 200,
};

/** Every id path parameter of an operation set to an id of its documented form that names nothing (its prefix, then zeros). */
function unknownIdsOf(operation: Operation): Record<string, string> {
  const params: Json[] = (operation.spec.parameters ?? []).filter((p: Json) => p.in === 'path');
  return Object.fromEntries(
    params.map((p) => {
      const prefix = /^\^([a-z_]+_)\[0-9A-Za-z\]\{(\d+)\}\$$/.exec(p.schema.pattern ?? '');
      return [p.name, prefix ? prefix[1] + '0'.repeat(Number(prefix[2])) : 'openapi-unknown'];
    }),
  );
}
