import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { connect, errors as natsErrors, type NatsConnection } from '@nats-io/transport-node';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { ConfigError, loadConfig, CommonConfig } from '@shared/config/load-config';
import { BusClient } from '@shared/bus/bus-client';
import { systemContext } from '@shared/bus/call-context';
import { natsConnectionOptions } from '@shared/bus/nats-connection';
import { busPermissions, natsUserName, natsUsers, passwordEnvName, renderNatsAuthorization } from '@shared/bus/permissions';
import { PAYLOAD_BUCKET_OWNER, PAYLOAD_BUCKET_USERS, PayloadCodec } from '@shared/bus/payload-codec';
import { BUS_IDENTITIES, rpcSubject, type BusIdentity } from '@shared/bus/subject';
import { fileSubjects, referenceSubjects } from '@shared/bus/subjects/catalog';
import { deploymentSubjects } from '@shared/bus/subjects/deployments';
import { mcpCredentialSubjects, workSubjects } from '@shared/bus/subjects/runtime';
import { sessionResourceSubjects, sessionSubjects } from '@shared/bus/subjects/sessions';
import { vaultCredentialSubjects, vaultSubjects } from '@shared/bus/subjects/vaults';
import { newId } from '@shared/ids/ids';
import { createLogger } from '@shared/log/logger';
import { bucketName } from '@shared/service-host/service-host';
import { apiClient } from '../support/api';
import { createDeployment, createVault, deploymentWorld } from '../support/fixtures';
import { makeTestCertificates, startPrivateNats, type PrivateNats, type TestCertificates } from '../support/private-nats';
import { Stack } from '../support/stack';

/**
 * The bus as a hostile network: a private nats-server runs with the generated authorization
 * (shared/bus/permissions.ts), every service connects with its own identity, and nothing else
 * gets in or reaches a subject that is not its own.
 */
const PREFIX = `tperm${randomBytes(3).toString('hex')}`;
const passwords = Object.fromEntries(BUS_IDENTITIES.map((id) => [id, `p${randomBytes(18).toString('hex')}`])) as Record<
  BusIdentity,
  string
>;
const admin = { user: 'test-admin', pass: randomBytes(18).toString('base64url') };

let nats: PrivateNats;
let stack: Stack;
const clients: NatsConnection[] = [];

/** A connection as `identity`, configured exactly as the services configure theirs. */
async function connectAs(identity: BusIdentity): Promise<NatsConnection> {
  const nc = await connect({
    ...natsConnectionOptions(identity, {
      NODE_ENV: 'test',
      NATS_URL: nats.url,
      BUS_PREFIX: PREFIX,
      NATS_USER: natsUserName(PREFIX, identity),
      NATS_PASSWORD: passwords[identity],
    }),
    maxReconnectAttempts: 0,
    // Named apart from the services' own connections, whose log must stay free of violations.
    name: `probe-${identity}`,
  });
  clients.push(nc);
  return nc;
}

/** Resolves with the next permission violation the server reports on this connection. */
function nextViolation(nc: NatsConnection): Promise<InstanceType<typeof natsErrors.PermissionViolationError>> {
  return (async () => {
    for await (const status of nc.status()) {
      if (status.type === 'error' && status.error instanceof natsErrors.PermissionViolationError) return status.error;
    }
    throw new Error('connection closed without a permission violation');
  })();
}

async function expectPublishRefused(nc: NatsConnection, subject: string): Promise<void> {
  const violation = nextViolation(nc);
  nc.publish(subject, new TextEncoder().encode('{}'));
  await nc.flush();
  const err = await violation;
  expect(err.operation).toBe('publish');
  expect(err.subject).toBe(subject);
}

async function expectSubscribeRefused(nc: NatsConnection, subject: string): Promise<void> {
  const violation = nextViolation(nc);
  const sub = nc.subscribe(subject);
  await nc.flush();
  const err = await violation;
  expect(err.operation).toBe('subscription');
  expect(err.subject).toBe(subject);
  expect(await sub.closed).toBeInstanceOf(Error);
}

beforeAll(async () => {
  const users = natsUsers(PREFIX, (identity) => ({ env: passwordEnvName(identity) }), [
    // As `bun run nats:config -- --passwords bcrypt` writes them: the server checks a hash.
    { user: admin.user, password: { value: await Bun.password.hash(admin.pass, { algorithm: 'bcrypt', cost: 4 }) } },
  ]);
  // Passwords reach the server through its environment: the configuration file holds none.
  nats = await startPrivateNats(
    renderNatsAuthorization(users),
    Object.fromEntries(BUS_IDENTITIES.map((id) => [passwordEnvName(id), passwords[id]])),
  );
  stack = await Stack.start({
    env: { NATS_URL: nats.url, BUS_PREFIX: PREFIX },
    serviceEnv: Object.fromEntries(
      BUS_IDENTITIES.map((id) => [id, { NATS_USER: natsUserName(PREFIX, id), NATS_PASSWORD: passwords[id] }]),
    ),
    natsAdmin: admin,
  });
}, 60_000);

afterAll(async () => {
  for (const nc of clients) await nc.close().catch(() => undefined);
  await stack?.stop();
  await nats?.stop();
});

describe('NATS identities and subject permissions', () => {
  test('an anonymous client, or one with a wrong password, cannot connect', async () => {
    await expect(connect({ servers: nats.url, maxReconnectAttempts: 0 })).rejects.toThrow(/Authorization/i);
    await expect(
      connect({ servers: nats.url, maxReconnectAttempts: 0, user: natsUserName(PREFIX, 'gateway'), pass: passwords.vaults }),
    ).rejects.toThrow(/Authorization/i);
  });

  test('the gateway identity cannot call internal subjects: credential resolution, vault checks, references, fire', async () => {
    const nc = await connectAs('gateway');
    for (const subject of [
      vaultCredentialSubjects.resolve,
      vaultCredentialSubjects.refresh,
      vaultSubjects.check,
      referenceSubjects.resolve,
      deploymentSubjects.fire,
    ]) {
      await expectPublishRefused(nc, rpcSubject(PREFIX, subject));
    }
    // Through the real client too: the request never reaches the vaults service.
    const client = new BusClient(nc, new PayloadCodec(nc, bucketName(PREFIX)), {
      prefix: PREFIX,
      timeoutMs: 500,
      logger: createLogger('error'),
    });
    const ctx = systemContext(newId('request'), { organization_id: 'org_x', workspace_id: 'wrkspc_x', scope: 'read_write', key_id: 'k' });
    await expect(client.call(vaultCredentialSubjects.resolve, ctx, { vault_ids: ['vlt_x'] } as never)).rejects.toThrow();
  });

  test('the catalog identity cannot fire deployments, resolve credentials or call public operations', async () => {
    const nc = await connectAs('catalog');
    await expectPublishRefused(nc, rpcSubject(PREFIX, deploymentSubjects.fire));
    await expectPublishRefused(nc, rpcSubject(PREFIX, vaultCredentialSubjects.resolve));
    await expectPublishRefused(nc, rpcSubject(PREFIX, vaultCredentialSubjects.refresh));
    await expectPublishRefused(nc, rpcSubject(PREFIX, deploymentSubjects.create));
    // Nor publish another service's events.
    await expectPublishRefused(nc, `${PREFIX}.deployments.created`);
  });

  test("the sandbox worker identity may call the claim, the failure or a repository report of a claimed item, a file's content and a session's current repository tokens, nothing else; no other identity may claim or fail; only it and the runtime open a session's mounts", async () => {
    // Its password reaches the server as NATS_PASSWORD_SANDBOX_WORKER: the connection itself proves it.
    expect(passwordEnvName('sandbox-worker')).toBe('NATS_PASSWORD_SANDBOX_WORKER');
    const sandbox = await connectAs('sandbox-worker');
    expect(busPermissions(PREFIX, 'sandbox-worker').publish.allow.filter((subject) => subject.includes('.rpc.'))).toEqual(
      [
        rpcSubject(PREFIX, fileSubjects.download),
        rpcSubject(PREFIX, sessionResourceSubjects.resolve),
        rpcSubject(PREFIX, workSubjects.claim),
        rpcSubject(PREFIX, workSubjects.fail),
        rpcSubject(PREFIX, workSubjects.report),
      ].toSorted(),
    );
    for (const subject of [workSubjects.poll, workSubjects.heartbeat, sessionSubjects.get, deploymentSubjects.fire, vaultCredentialSubjects.resolve, vaultCredentialSubjects.refresh]) {
      await expectPublishRefused(sandbox, rpcSubject(PREFIX, subject));
    }
    await expectSubscribeRefused(sandbox, `_INBOX.${PREFIX}-runtime.>`);
    const gateway = await connectAs('gateway');
    await expectPublishRefused(gateway, rpcSubject(PREFIX, workSubjects.claim));
    await expectPublishRefused(gateway, rpcSubject(PREFIX, workSubjects.fail));
    await expectPublishRefused(gateway, rpcSubject(PREFIX, workSubjects.report));
    await expectPublishRefused(gateway, rpcSubject(PREFIX, sessionResourceSubjects.resolve));
    expect(BUS_IDENTITIES.filter((identity) => busPermissions(PREFIX, identity).publish.allow.includes(rpcSubject(PREFIX, sessionResourceSubjects.resolve)))).toEqual(['runtime', 'sandbox-worker']);
  });

  test("only the runtime may ask for an mcp_oauth credential's refresh (its reply holds a new access token); only the gateway asks the runtime to validate one", async () => {
    const publishers = (subject: Parameters<typeof rpcSubject>[1]) =>
      BUS_IDENTITIES.filter((identity) => busPermissions(PREFIX, identity).publish.allow.includes(rpcSubject(PREFIX, subject)));
    expect(publishers(vaultCredentialSubjects.refresh)).toEqual(['runtime']);
    expect(publishers(mcpCredentialSubjects.validate)).toEqual(['gateway']);
    for (const identity of ['gateway', 'deployments', 'sandbox-worker'] as const) {
      await expectPublishRefused(await connectAs(identity), rpcSubject(PREFIX, vaultCredentialSubjects.refresh));
    }
  });

  test('the payload bucket: only its owner may create or update its stream; the sandbox worker cannot touch it (issue 24)', async () => {
    // Every identity could update OBJ_<bucket>: one added another service's request subjects to
    // it and read them back, one-off keys included (a vault credential's token, from the
    // sandbox worker's identity).
    const objects = `OBJ_${bucketName(PREFIX)}`;
    for (const identity of BUS_IDENTITIES) {
      const allow = busPermissions(PREFIX, identity).publish.allow;
      const owner = identity === PAYLOAD_BUCKET_OWNER;
      expect({ identity, update: allow.includes(`$JS.API.STREAM.UPDATE.${objects}`) }).toEqual({ identity, update: owner });
      expect({ identity, create: allow.includes(`$JS.API.STREAM.CREATE.${objects}`) }).toEqual({ identity, create: owner });
      expect({ identity, chunks: allow.includes(`$O.${bucketName(PREFIX)}.>`) }).toEqual({ identity, chunks: PAYLOAD_BUCKET_USERS.includes(identity) });
    }
    const sandbox = await connectAs('sandbox-worker');
    // The attack itself: widen the stream to capture the credential resolution requests.
    const update = JSON.stringify({
      name: objects,
      subjects: [`$O.${bucketName(PREFIX)}.C.>`, `$O.${bucketName(PREFIX)}.M.>`, rpcSubject(PREFIX, vaultCredentialSubjects.resolve)],
    });
    for (const api of [`$JS.API.STREAM.UPDATE.${objects}`, `$JS.API.STREAM.CREATE.${objects}`, `$JS.API.STREAM.INFO.${objects}`, `$JS.API.DIRECT.GET.${objects}`]) {
      const violation = nextViolation(sandbox);
      sandbox.publish(api, new TextEncoder().encode(update));
      await sandbox.flush();
      expect((await violation).subject).toBe(api);
    }
    // Nor read or write another service's payload chunks.
    await expectPublishRefused(sandbox, `$O.${bucketName(PREFIX)}.C.anything`);
    const gateway = await connectAs('gateway');
    await expectPublishRefused(gateway, `$JS.API.STREAM.UPDATE.${objects}`);
    // The stream's subjects are still only the object store's own.
    const operator = await connect({ servers: nats.url, user: admin.user, pass: admin.pass, maxReconnectAttempts: 0 });
    clients.push(operator);
    const info = JSON.parse(new TextDecoder().decode((await operator.request(`$JS.API.STREAM.INFO.${objects}`, undefined, { timeout: 5000 })).data));
    expect(info.config.subjects.sort()).toEqual([`$O.${bucketName(PREFIX)}.C.>`, `$O.${bucketName(PREFIX)}.M.>`]);
  });

  test('no identity ends with -<another identity>, so two installs\' prefixed user names and inboxes never meet', () => {
    for (const one of BUS_IDENTITIES) for (const other of BUS_IDENTITIES) expect(one.endsWith(`-${other}`)).toBe(false);
  });

  test('no identity can subscribe to everything, to another service\'s subjects or to another\'s inbox', async () => {
    const gateway = await connectAs('gateway');
    await expectSubscribeRefused(gateway, '>');
    await expectSubscribeRefused(gateway, rpcSubject(PREFIX, vaultCredentialSubjects.resolve));
    await expectSubscribeRefused(gateway, `_INBOX.${PREFIX}-deployments.>`);
    const catalog = await connectAs('catalog');
    await expectSubscribeRefused(catalog, `${PREFIX}.rpc.>`);
    await expectSubscribeRefused(catalog, rpcSubject(PREFIX, deploymentSubjects.fire));
    await expectSubscribeRefused(catalog, '_INBOX.>');
    // The previews of answers being written: the runtime's to send, only the gateway's to hear.
    await expectSubscribeRefused(catalog, `${PREFIX}.live.session_previews.>`);
    await expectSubscribeRefused(await connectAs('sandbox-worker'), `${PREFIX}.live.session_previews.${newId('session')}`);
    await expectPublishRefused(gateway, `${PREFIX}.live.session_previews.${newId('session')}`);
    // What appends added to sessions' logs: the deployments service's to send, only the gateway's to hear.
    await expectSubscribeRefused(await connectAs('runtime'), `${PREFIX}.live.session_events.>`);
    await expectSubscribeRefused(await connectAs('sandbox-worker'), `${PREFIX}.live.session_events.${newId('session')}`);
    await expectPublishRefused(gateway, `${PREFIX}.live.session_events.${newId('session')}`);
    await expectPublishRefused(await connectAs('runtime'), `${PREFIX}.live.session_events.${newId('session')}`);
  });

  test('the permissions are generated from the subject declarations', () => {
    const gateway = busPermissions(PREFIX, 'gateway');
    expect(gateway.publish.allow).toContain(rpcSubject(PREFIX, deploymentSubjects.run));
    expect(gateway.publish.allow).not.toContain(rpcSubject(PREFIX, deploymentSubjects.fire));
    // Its inbox, the session events its event streams follow (core NATS, no consumer), the runtime's previews and the appends' events.
    expect(gateway.subscribe.allow).toEqual([
      `${PREFIX}.sessions.>`,
      `${PREFIX}.live.session_previews.>`,
      `${PREFIX}.live.session_events.>`,
      `_INBOX.${PREFIX}-gateway.>`,
    ]);
    expect(gateway.publish.allow).not.toContain(`${PREFIX}.live.session_previews.>`);
    expect(busPermissions(PREFIX, 'runtime').publish.allow).toContain(`${PREFIX}.live.session_previews.>`);
    expect(busPermissions(PREFIX, 'deployments').publish.allow).toContain(`${PREFIX}.live.session_events.>`);
    expect(busPermissions(PREFIX, 'scheduler').publish.allow).toContain(rpcSubject(PREFIX, deploymentSubjects.fire));
    // Decrypted credentials: the fire path (deployments) and the runtime's MCP connections (issue 28), no one else.
    for (const identity of ['deployments', 'runtime'] as const) {
      expect(busPermissions(PREFIX, identity).publish.allow).toContain(rpcSubject(PREFIX, vaultCredentialSubjects.resolve));
    }
    for (const identity of BUS_IDENTITIES.filter((id) => id !== 'deployments' && id !== 'runtime')) {
      expect(busPermissions(PREFIX, identity).publish.allow).not.toContain(rpcSubject(PREFIX, vaultCredentialSubjects.resolve));
    }
  });

  test('the stack, each service with its own identity, serves a request end to end through the gateway', async () => {
    const org = `org_${randomBytes(6).toString('hex')}`;
    const workspace = `wrkspc_${randomBytes(6).toString('hex')}`;
    const key = (await stack.createKey({ org, workspace })).secret;
    const api = apiClient(stack.url, key);
    const world = await deploymentWorld(api);
    const vault = await createVault(api);
    const credential = await api('POST', `/v1/vaults/${vault.id}/credentials`, {
      body: { display_name: 'token', auth: { type: 'static_bearer', token: 'secret-token-value', mcp_server_url: 'https://mcp.example.com/sse' } },
    });
    expect(credential.status).toBe(200);
    // The fire path: deployments asks vaults (check, resolve) and the catalog (references).
    const deployment = await createDeployment(api, world.body({ vault_ids: [vault.id] }));
    const run = await api('POST', `/v1/deployments/${deployment.id}/run`);
    expect(run.status).toBe(200);
    expect(run.body.type).toBe('deployment_run');
    expect(run.body.error).toBeNull();
    expect(run.body.session_id).toMatch(/^sesn_/);

    // A payload over the server's max_payload travels through the object store, both ways.
    const big = 'x'.repeat(1_500_000);
    const form = new FormData();
    form.append('file', new File([big], 'big.txt', { type: 'text/plain' }));
    const upload = await api('POST', '/v1/files', { rawBody: form });
    expect(upload.status).toBe(200);
    // Back over the bus as the runtime reads rubric files (uploads are not downloadable over HTTP).
    const runtime = await connectAs('runtime');
    const reader = new BusClient(runtime, new PayloadCodec(runtime, bucketName(PREFIX), { createsBucket: false }), {
      prefix: PREFIX,
      timeoutMs: 10_000,
      logger: createLogger('error'),
    });
    const tenantCtx = systemContext(newId('request'), { organization_id: org, workspace_id: workspace, scope: 'read_write', key_id: 'k' });
    const download = await reader.call(fileSubjects.download, tenantCtx, { file_id: upload.body.id });
    expect(Buffer.from(download.content_base64, 'base64').toString().length).toBe(big.length);
    // The runtime resolves a session's vault credentials for its MCP connections (issue 28).
    const resolved = await reader.call(vaultCredentialSubjects.resolve, tenantCtx, { vault_ids: [vault.id] });
    expect(resolved.vaults[0]).toMatchObject({ id: vault.id, state: 'ok', credentials: [{ auth: { type: 'static_bearer', mcp_server_url: 'https://mcp.example.com/sse' } }] });

    // The scheduler's identity may fire (a scheduled trigger), as no other identity may.
    const scheduler = await connectAs('scheduler');
    const client = new BusClient(scheduler, new PayloadCodec(scheduler, bucketName(PREFIX)), {
      prefix: PREFIX,
      timeoutMs: 5000,
      logger: createLogger('error'),
    });
    const fired = await client.call(deploymentSubjects.fire, systemContext(newId('request'), { organization_id: org, workspace_id: workspace, scope: 'read_write', key_id: 'scheduler' }), {
      deployment_id: deployment.id,
      trigger: { type: 'manual' },
    });
    expect(fired.outcome).toBe('fired');

    // Everything the services themselves did (serving, replies, events, the scheduler's
    // consumer, offloaded payloads, the gateway's rate limit buckets: read at a key's first
    // request, charged at the sync) stayed inside their permissions.
    await stack.gateway.rateLimits.sync();
    await Promise.all([...stack.services.values(), stack.gateway.host].map((s) => s.nc.flush()));
    const refused = nats.log().split('\n').filter((line) => /Violation/.test(line) && !line.includes('probe-'));
    expect(refused).toEqual([]);
  }, 60_000);
});

describe('connection settings', () => {
  const base = { NODE_ENV: 'production' as const, NATS_URL: 'nats://127.0.0.1:4222', BUS_PREFIX: '' };

  test('production refuses to connect without an identity; elsewhere it may', () => {
    expect(() => natsConnectionOptions('vaults', base)).toThrow(/NATS_USER and NATS_PASSWORD are required when NODE_ENV=production/);
    expect(natsConnectionOptions('vaults', { ...base, NODE_ENV: 'development' }).user).toBeUndefined();
    const options = natsConnectionOptions('vaults', { ...base, NATS_USER: 'vaults', NATS_PASSWORD: 'pAbcdefghijklmnop' });
    expect(options).toMatchObject({ user: 'vaults', pass: 'pAbcdefghijklmnop', inboxPrefix: '_INBOX.vaults' });
  });

  test('the identity settings are checked together, and the password is one nats-server can read from its environment', () => {
    expect(() => loadConfig(CommonConfig, { NATS_USER: 'gateway' })).toThrow(ConfigError);
    expect(() => loadConfig(CommonConfig, { NATS_USER: 'gateway' })).toThrow(/NATS_USER and NATS_PASSWORD must be set together/);
    expect(() => loadConfig(CommonConfig, { NATS_USER: 'gateway', NATS_PASSWORD: 'short-1' })).toThrow(/NATS_PASSWORD/);
    expect(() => loadConfig(CommonConfig, { NATS_USER: 'gateway', NATS_PASSWORD: '1bcdefghijklmnopq' })).toThrow(/NATS_PASSWORD/);
    expect(() => loadConfig(CommonConfig, { NATS_TLS_CERT_FILE: '/x.crt' })).toThrow(/NATS_TLS_KEY_FILE/);
    expect(loadConfig(CommonConfig, { NATS_USER: 'gateway', NATS_PASSWORD: 'pAbcdefghijklmnop' }).NATS_USER).toBe('gateway');
  });
});

describe('TLS to NATS', () => {
  let certs: TestCertificates;
  let server: PrivateNats;
  beforeAll(async () => {
    certs = makeTestCertificates();
    // verify: the server also demands a client certificate signed by the CA.
    server = await startPrivateNats(
      `tls { cert_file: ${JSON.stringify(certs.serverCert)}, key_file: ${JSON.stringify(certs.serverKey)}, ca_file: ${JSON.stringify(certs.ca)}, verify: true }\n`,
    );
  });
  afterAll(async () => {
    await server?.stop();
    if (certs) rmSync(certs.dir, { recursive: true, force: true });
  });

  const settings = (url: string, files: Record<string, string>) => ({ NODE_ENV: 'test' as const, NATS_URL: url, BUS_PREFIX: '', ...files });

  test('a tls:// URL with the CA and a client certificate connects over TLS', async () => {
    const options = natsConnectionOptions('catalog', settings(`tls://127.0.0.1:${server.port}`, {
      NATS_TLS_CA_FILE: certs.ca,
      NATS_TLS_CERT_FILE: certs.clientCert,
      NATS_TLS_KEY_FILE: certs.clientKey,
    }));
    const nc = await connect({ ...options, maxReconnectAttempts: 0 });
    try {
      expect(nc.info?.tls_required).toBe(true);
      await nc.flush();
    } finally {
      await nc.close();
    }
  });

  test('without the client certificate the server refuses the connection', async () => {
    const options = natsConnectionOptions('catalog', settings(`tls://127.0.0.1:${server.port}`, { NATS_TLS_CA_FILE: certs.ca }));
    // The server drops the connection after the handshake; the connect timeout bounds the wait.
    await expect(connect({ ...options, maxReconnectAttempts: 0, reconnect: false, timeout: 2000 })).rejects.toThrow();
  });

  test('a tls:// URL never falls back to plain text on a server without TLS', async () => {
    const options = natsConnectionOptions('gateway', settings(nats.url.replace('nats://', 'tls://'), {}));
    await expect(connect({ ...options, maxReconnectAttempts: 0 })).rejects.toThrow(/tls/i);
  });
});
