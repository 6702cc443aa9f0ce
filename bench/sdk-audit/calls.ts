/**
 * The calls of the SDK surface audit, in the order they run: each audited method once, with
 * arguments built from what earlier calls created (a made-up id where nothing could be made, so
 * the answer still tells "no such route" from a resource's 404), then the clean-up calls.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { BetaManagedAgentsBudgetLimit } from '@anthropic-ai/sdk/resources/beta/sessions/sessions';

export interface Call {
  /** `beta.<resource>[.<sub>].<method>`, as the SDK's resource tree names it. */
  readonly method: string;
  /** Unrecorded setup: only what later calls need (its failure shows in theirs). */
  readonly setup?: boolean;
  readonly run: (client: Anthropic, ids: Ids) => Promise<unknown>;
}

/** Ids of what this run made; absent where a call failed (a made-up id stands in). */
export type Ids = Record<string, string | number | undefined>;

const MISSING: Record<string, string> = {
  agent: 'agent_auditMissing000000000', env: 'env_auditMissing000000000', selfEnv: 'env_auditMissing000000001',
  vault: 'vlt_auditMissing000000000', credential: 'vcrd_auditMissing00000000', file: 'file_auditMissing00000000',
  store: 'memstore_auditMissing000000', memory: 'mem_auditMissing000000000', memoryVersion: 'memver_auditMissing0000000',
  session: 'sesn_auditMissing00000000', resource: 'sesrsc_auditMissing000000', thread: 'sthr_auditMissing00000000',
  work: 'work_auditMissing00000000', deployment: 'depl_auditMissing00000000', run: 'drun_auditMissing00000000',
  skill: 'skill_auditMissing0000000', skillVersion: 'skillver_auditMissing0000000', model: 'claude-opus-4-5',
};
const id = (ids: Ids, kind: string): string => String(ids[kind] ?? MISSING[kind]);

/** A zero budget: a session's runtime records `budget_reached` and never calls the model (the stack may have no model key). */
const budget: BetaManagedAgentsBudgetLimit = { type: 'limit', max_list_cost: { amount: '0', currency: 'USD' } };
const userMessage = { type: 'user.message' as const, content: [{ type: 'text' as const, text: 'Summarise the overnight alerts' }] };
const skillFiles = () => [new File(['---\nname: audit\ndescription: made up by the audit\n---\n'], 'audit/SKILL.md', { type: 'text/markdown' })];

/** Opens an event stream and closes it once its headers are in: the route answered 200. */
async function openStream(open: (signal: AbortSignal) => Promise<unknown>): Promise<void> {
  const controller = new AbortController();
  await open(controller.signal);
  controller.abort();
}

export function auditCalls(run: string): Call[] {
  const name = (what: string) => `sdk-audit ${run} ${what}`;
  const c = (method: string, fn: Call['run']): Call => ({ method, run: fn });
  const keep = (ids: Ids, kind: string) => (made: { id: string }) => (ids[kind] = made.id);
  return [
    c('beta.models.list', async (a, ids) => ((ids.model = (await a.beta.models.list({ limit: 5 })).data[0]?.id), undefined)),
    c('beta.models.retrieve', (a, ids) => a.beta.models.retrieve(id(ids, 'model'))),

    c('beta.agents.create', async (a, ids) => {
      const agent = await a.beta.agents.create({ name: name('agent'), model: 'claude-opus-4-5' });
      ids.agent = agent.id;
      ids.agentVersion = agent.version;
    }),
    c('beta.agents.retrieve', (a, ids) => a.beta.agents.retrieve(id(ids, 'agent'))),
    c('beta.agents.update', (a, ids) => a.beta.agents.update(id(ids, 'agent'), { version: Number(ids.agentVersion ?? 1), system: 'Updated by the audit.' })),
    c('beta.agents.list', (a) => a.beta.agents.list({ limit: 5 })),
    c('beta.agents.versions.list', (a, ids) => a.beta.agents.versions.list(id(ids, 'agent'))),

    c('beta.environments.create', (a, ids) => a.beta.environments.create({ name: name('cloud'), config: { type: 'cloud' } }).then(keep(ids, 'env'))),
    { method: 'beta.environments.create', setup: true, run: (a, ids) => a.beta.environments.create({ name: name('self-hosted'), config: { type: 'self_hosted' } }).then(keep(ids, 'selfEnv')) },
    c('beta.environments.retrieve', (a, ids) => a.beta.environments.retrieve(id(ids, 'env'))),
    c('beta.environments.update', (a, ids) => a.beta.environments.update(id(ids, 'env'), { description: 'updated by the audit' })),
    c('beta.environments.list', (a) => a.beta.environments.list({ limit: 5 })),

    c('beta.vaults.create', (a, ids) => a.beta.vaults.create({ display_name: name('vault') }).then(keep(ids, 'vault'))),
    c('beta.vaults.retrieve', (a, ids) => a.beta.vaults.retrieve(id(ids, 'vault'))),
    c('beta.vaults.update', (a, ids) => a.beta.vaults.update(id(ids, 'vault'), { display_name: name('vault (renamed)') })),
    c('beta.vaults.list', (a) => a.beta.vaults.list({ limit: 5 })),
    c('beta.vaults.credentials.create', (a, ids) =>
      a.beta.vaults.credentials
        .create(id(ids, 'vault'), { display_name: 'audit bearer', auth: { type: 'static_bearer', mcp_server_url: 'https://mcp.example.com/sse', token: 'audit-token' } })
        .then(keep(ids, 'credential')),
    ),
    c('beta.vaults.credentials.retrieve', (a, ids) => a.beta.vaults.credentials.retrieve(id(ids, 'credential'), { vault_id: id(ids, 'vault') })),
    c('beta.vaults.credentials.update', (a, ids) => a.beta.vaults.credentials.update(id(ids, 'credential'), { vault_id: id(ids, 'vault'), display_name: 'audit bearer (renamed)' })),
    c('beta.vaults.credentials.list', (a, ids) => a.beta.vaults.credentials.list(id(ids, 'vault'))),
    c('beta.vaults.credentials.mcpOAuthValidate', (a, ids) => a.beta.vaults.credentials.mcpOAuthValidate(id(ids, 'credential'), { vault_id: id(ids, 'vault') })),

    c('beta.files.upload', (a, ids) => a.beta.files.upload({ file: new File([`audit ${run}\n`], 'audit.txt', { type: 'text/plain' }) }).then(keep(ids, 'file'))),
    c('beta.files.retrieveMetadata', (a, ids) => a.beta.files.retrieveMetadata(id(ids, 'file'))),
    c('beta.files.list', (a) => a.beta.files.list({ limit: 5 })),
    c('beta.files.download', async (a, ids) => (await a.beta.files.download(id(ids, 'file'))).text()),

    c('beta.memoryStores.create', (a, ids) => a.beta.memoryStores.create({ name: name('store') }).then(keep(ids, 'store'))),
    c('beta.memoryStores.retrieve', (a, ids) => a.beta.memoryStores.retrieve(id(ids, 'store'))),
    c('beta.memoryStores.update', (a, ids) => a.beta.memoryStores.update(id(ids, 'store'), { description: 'updated by the audit' })),
    c('beta.memoryStores.list', (a) => a.beta.memoryStores.list({ limit: 5 })),
    c('beta.memoryStores.memories.create', (a, ids) => a.beta.memoryStores.memories.create(id(ids, 'store'), { path: '/audit/notes.md', content: 'first' }).then(keep(ids, 'memory'))),
    c('beta.memoryStores.memories.retrieve', (a, ids) => a.beta.memoryStores.memories.retrieve(id(ids, 'memory'), { memory_store_id: id(ids, 'store') })),
    c('beta.memoryStores.memories.update', (a, ids) => a.beta.memoryStores.memories.update(id(ids, 'memory'), { memory_store_id: id(ids, 'store'), content: 'second' })),
    c('beta.memoryStores.memories.list', (a, ids) => a.beta.memoryStores.memories.list(id(ids, 'store'))),
    c('beta.memoryStores.memoryVersions.list', async (a, ids) => {
      ids.memoryVersion = (await a.beta.memoryStores.memoryVersions.list(id(ids, 'store'))).data[0]?.id;
    }),
    c('beta.memoryStores.memoryVersions.retrieve', (a, ids) => a.beta.memoryStores.memoryVersions.retrieve(id(ids, 'memoryVersion'), { memory_store_id: id(ids, 'store') })),
    c('beta.memoryStores.memoryVersions.redact', (a, ids) => a.beta.memoryStores.memoryVersions.redact(id(ids, 'memoryVersion'), { memory_store_id: id(ids, 'store') })),

    // The session lives in the self-hosted environment, with a repository resource (the one kind whose token can be updated).
    c('beta.sessions.create', async (a, ids) => {
      const session = await a.beta.sessions.create({
        agent: id(ids, 'agent'),
        environment_id: id(ids, 'selfEnv'),
        title: name('session'),
        budget,
        resources: [{ type: 'github_repository', url: 'https://github.com/acme/widgets', authorization_token: 'ghp_audit_token' }],
      });
      ids.session = session.id;
      ids.resource = (session.resources[0] as { id?: string } | undefined)?.id; // the product names each resource; 1.14's type does not
    }),
    c('beta.sessions.retrieve', (a, ids) => a.beta.sessions.retrieve(id(ids, 'session'))),
    c('beta.sessions.update', (a, ids) => a.beta.sessions.update(id(ids, 'session'), { title: name('session (renamed)') })),
    c('beta.sessions.list', (a) => a.beta.sessions.list({ limit: 5 })),
    c('beta.sessions.events.send', (a, ids) => a.beta.sessions.events.send(id(ids, 'session'), { events: [userMessage] })),
    c('beta.sessions.events.list', (a, ids) => a.beta.sessions.events.list(id(ids, 'session'))),
    c('beta.sessions.events.stream', (a, ids) => openStream((signal) => a.beta.sessions.events.stream(id(ids, 'session'), {}, { signal }))),
    c('beta.sessions.resources.add', (a, ids) => a.beta.sessions.resources.add(id(ids, 'session'), { type: 'file', file_id: id(ids, 'file') }).then(keep(ids, 'fileResource'))),
    c('beta.sessions.resources.list', (a, ids) => a.beta.sessions.resources.list(id(ids, 'session'))),
    c('beta.sessions.resources.retrieve', (a, ids) => a.beta.sessions.resources.retrieve(id(ids, 'resource'), { session_id: id(ids, 'session') })),
    c('beta.sessions.resources.update', (a, ids) => a.beta.sessions.resources.update(id(ids, 'resource'), { session_id: id(ids, 'session'), authorization_token: 'ghp_audit_rotated' })),
    c('beta.sessions.threads.list', async (a, ids) => {
      ids.thread = (await a.beta.sessions.threads.list(id(ids, 'session'))).data[0]?.id;
    }),
    c('beta.sessions.threads.retrieve', (a, ids) => a.beta.sessions.threads.retrieve(id(ids, 'thread'), { session_id: id(ids, 'session') })),
    c('beta.sessions.threads.events.list', (a, ids) => a.beta.sessions.threads.events.list(id(ids, 'thread'), { session_id: id(ids, 'session') })),
    c('beta.sessions.threads.events.stream', (a, ids) =>
      openStream((signal) => a.beta.sessions.threads.events.stream(id(ids, 'thread'), { session_id: id(ids, 'session') }, { signal })),
    ),
    c('beta.sessions.threads.archive', (a, ids) => a.beta.sessions.threads.archive(id(ids, 'thread'), { session_id: id(ids, 'session') })),

    // Work items come only from a model's tool calls; with none, the item calls use a made-up id.
    c('beta.environments.work.stats', (a, ids) => a.beta.environments.work.stats(id(ids, 'selfEnv'))),
    c('beta.environments.work.list', (a, ids) => a.beta.environments.work.list(id(ids, 'selfEnv'))),
    c('beta.environments.work.poll', async (a, ids) => {
      ids.work = (await a.beta.environments.work.poll(id(ids, 'selfEnv'), { block_ms: 500 }))?.id;
    }),
    c('beta.environments.work.ack', (a, ids) => a.beta.environments.work.ack(id(ids, 'work'), { environment_id: id(ids, 'selfEnv') })),
    c('beta.environments.work.heartbeat', (a, ids) => a.beta.environments.work.heartbeat(id(ids, 'work'), { environment_id: id(ids, 'selfEnv') })),
    c('beta.environments.work.retrieve', (a, ids) => a.beta.environments.work.retrieve(id(ids, 'work'), { environment_id: id(ids, 'selfEnv') })),
    c('beta.environments.work.update', (a, ids) => a.beta.environments.work.update(id(ids, 'work'), { environment_id: id(ids, 'selfEnv'), metadata: { audit: run } })),
    c('beta.environments.work.stop', (a, ids) => a.beta.environments.work.stop(id(ids, 'work'), { environment_id: id(ids, 'selfEnv'), force: true })),

    c('beta.deployments.create', (a, ids) =>
      a.beta.deployments
        .create({ name: name('deployment'), agent: id(ids, 'agent'), environment_id: id(ids, 'env'), initial_events: [userMessage], budget })
        .then(keep(ids, 'deployment')),
    ),
    c('beta.deployments.retrieve', (a, ids) => a.beta.deployments.retrieve(id(ids, 'deployment'))),
    c('beta.deployments.update', (a, ids) => a.beta.deployments.update(id(ids, 'deployment'), { description: 'updated by the audit' })),
    c('beta.deployments.list', (a) => a.beta.deployments.list({ limit: 5 })),
    c('beta.deployments.pause', (a, ids) => a.beta.deployments.pause(id(ids, 'deployment'))),
    c('beta.deployments.unpause', (a, ids) => a.beta.deployments.unpause(id(ids, 'deployment'))),
    c('beta.deployments.run', (a, ids) => a.beta.deployments.run(id(ids, 'deployment')).then(keep(ids, 'run'))),
    { method: 'beta.sessions.delete', setup: true, run: async (a, ids) => {
      // The run's session (budget 0: it rests at once) is not the audit's to keep.
      const made = ids.run ? (await a.beta.deploymentRuns.retrieve(String(ids.run))).session_id : null;
      if (made) await a.beta.sessions.delete(made);
    } },
    c('beta.deploymentRuns.list', (a, ids) => a.beta.deploymentRuns.list({ deployment_id: id(ids, 'deployment'), limit: 5 })),
    c('beta.deploymentRuns.retrieve', (a, ids) => a.beta.deploymentRuns.retrieve(id(ids, 'run'))),

    // Nothing in the product makes a skill yet: a made-up one.
    c('beta.skills.create', (a, ids) => a.beta.skills.create({ display_name: name('skill'), files: skillFiles() }).then(keep(ids, 'skill'))),
    c('beta.skills.retrieve', (a, ids) => a.beta.skills.retrieve(id(ids, 'skill'))),
    c('beta.skills.list', (a) => a.beta.skills.list({ limit: 5 })),
    c('beta.skills.versions.create', (a, ids) => a.beta.skills.versions.create(id(ids, 'skill'), { files: skillFiles() }).then(keep(ids, 'skillVersion'))),
    c('beta.skills.versions.list', (a, ids) => a.beta.skills.versions.list(id(ids, 'skill'))),
    c('beta.skills.versions.retrieve', (a, ids) => a.beta.skills.versions.retrieve(id(ids, 'skillVersion'), { skill_id: id(ids, 'skill') })),
    c('beta.skills.versions.download', async (a, ids) => (await a.beta.skills.versions.download(id(ids, 'skillVersion'), { skill_id: id(ids, 'skill') })).text()),
    c('beta.skills.versions.delete', (a, ids) => a.beta.skills.versions.delete(id(ids, 'skillVersion'), { skill_id: id(ids, 'skill') })),
    c('beta.skills.delete', (a, ids) => a.beta.skills.delete(id(ids, 'skill'))),

    // Clean-up, children first.
    c('beta.memoryStores.memories.delete', (a, ids) => a.beta.memoryStores.memories.delete(id(ids, 'memory'), { memory_store_id: id(ids, 'store') })),
    c('beta.sessions.resources.delete', (a, ids) => a.beta.sessions.resources.delete(String(ids.fileResource ?? MISSING.resource), { session_id: id(ids, 'session') })),
    c('beta.sessions.archive', (a, ids) => a.beta.sessions.archive(id(ids, 'session'))),
    c('beta.sessions.delete', (a, ids) => a.beta.sessions.delete(id(ids, 'session'))),
    c('beta.deployments.archive', (a, ids) => a.beta.deployments.archive(id(ids, 'deployment'))),
    c('beta.vaults.credentials.archive', (a, ids) => a.beta.vaults.credentials.archive(id(ids, 'credential'), { vault_id: id(ids, 'vault') })),
    c('beta.vaults.credentials.delete', (a, ids) => a.beta.vaults.credentials.delete(id(ids, 'credential'), { vault_id: id(ids, 'vault') })),
    c('beta.vaults.archive', (a, ids) => a.beta.vaults.archive(id(ids, 'vault'))),
    c('beta.vaults.delete', (a, ids) => a.beta.vaults.delete(id(ids, 'vault'))),
    c('beta.memoryStores.archive', (a, ids) => a.beta.memoryStores.archive(id(ids, 'store'))),
    c('beta.memoryStores.delete', (a, ids) => a.beta.memoryStores.delete(id(ids, 'store'))),
    c('beta.files.delete', (a, ids) => a.beta.files.delete(id(ids, 'file'))),
    c('beta.agents.archive', (a, ids) => a.beta.agents.archive(id(ids, 'agent'))),
    c('beta.environments.archive', (a, ids) => a.beta.environments.archive(id(ids, 'env'))),
    c('beta.environments.delete', (a, ids) => a.beta.environments.delete(id(ids, 'selfEnv'))),
  ];
}
