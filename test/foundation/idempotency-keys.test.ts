import { connect, type Msg, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { describeEachSdk } from '../support/sdk';
import { count } from 'drizzle-orm';
import { rpcSubject } from '@shared/bus/subject';
import { deploymentSubjects } from '@shared/bus/subjects/deployments';
import { newId, randomBase62 } from '@shared/ids/ids';
import { ManualClock } from '@shared/time/clock';
import { findIdempotencyKey } from '../../services/gateway/src/db/idempotency-keys';
import { idempotencyKeys } from '../../services/gateway/src/db/schema';
import { idempotencyKeyHash } from '../../services/gateway/src/domain/idempotency-key';
import { apiClient, type ApiClient } from '../support/api';
import { eventually } from '../support/eventually';
import { expectError, expectOk } from '../support/expect';
import { deploymentWorld, MODELS, type DeploymentWorld } from '../support/fixtures';
import { infrastructure } from '../support/infrastructure';
import { Stack } from '../support/stack';
import { TcpProxy } from '../support/tcp-proxy';

/**
 * Idempotency keys through the real gateway, services, NATS and MariaDB, and the official SDK
 * retrying with one: a retry of the same request gets the first answer and creates nothing more,
 * another request with the key is 409, a retry while the first runs is 409 (which the SDK
 * retries), and what failed retryably is not kept. Time is a hand-driven clock (the 24 h).
 */
const T0 = Date.parse('2026-11-22T09:00:00.000Z');
const clock = new ManualClock(new Date(T0));
let stack: Stack;
let tenant: { org: string; workspace: string };
let key: string;
let api: ApiClient;
let world: DeploymentWorld;

beforeAll(async () => {
  // A long bus timeout: one test holds a create on the bus while it sends the retry.
  stack = await Stack.start({ clock, env: { BUS_TIMEOUT_MS: '20000' } });
  tenant = { org: `org_${randomBase62(8)}`, workspace: `wrkspc_${randomBase62(8)}` };
  key = (await stack.createKey(tenant)).secret;
  api = apiClient(stack.url, key);
  world = await deploymentWorld(api);
});
afterAll(() => stack?.stop());

const withKey = (idempotencyKey: string, body: unknown) => ({ body, headers: { 'idempotency-key': idempotencyKey } });
const deploymentsNamed = async (name: string) =>
  (expectOk(await api('GET', '/v1/deployments', { query: { limit: '100' } })).data as Array<{ id: string; name: string }>).filter(
    (d) => d.name === name,
  );
const agentsNamed = async (name: string) =>
  (expectOk(await api('GET', '/v1/agents', { query: { limit: '100' } })).data as Array<{ id: string; name: string }>).filter(
    (a) => a.name === name,
  );
const storedRows = async () => (await stack.gateway.host.database.db.select({ n: count() }).from(idempotencyKeys))[0]!.n;
const storedRow = (idempotencyKey: string) =>
  findIdempotencyKey(stack.gateway.host.database.db, {
    organizationId: tenant.org,
    workspaceId: tenant.workspace,
    keyHash: idempotencyKeyHash(idempotencyKey),
  });

describe('Idempotency-Key on POST', () => {
  test('without the header nothing is stored', async () => {
    const before = await storedRows();
    expectOk(await api('POST', '/v1/deployments', { body: world.body({ name: 'no key' }) }));
    expect(await storedRows()).toBe(before);
  });

  test('a retried create gets the first answer, replayed, and one deployment exists', async () => {
    const idempotencyKey = `create-${randomBase62(12)}`;
    const body = world.body({ name: 'created once' });
    const first = await api('POST', '/v1/deployments', withKey(idempotencyKey, body));
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const retry = await api('POST', '/v1/deployments', withKey(idempotencyKey, body));
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.headers.get('content-type')).toStartWith('application/json');
    // A request of its own: its own request id and rate limit headers.
    expect(retry.headers.get('request-id')).not.toBe(first.headers.get('request-id'));
    expect(retry.headers.get('anthropic-ratelimit-requests-remaining')).not.toBeNull();
    expect((await deploymentsNamed('created once')).map((d) => d.id)).toEqual([first.body.id]);
  });

  test('the same key with another body or on another path is 409 naming the header; another tenant\'s key is its own', async () => {
    const idempotencyKey = `reused-${randomBase62(12)}`;
    expectOk(await api('POST', '/v1/deployments', withKey(idempotencyKey, world.body({ name: 'first use' }))));
    const otherBody = await api('POST', '/v1/deployments', withKey(idempotencyKey, world.body({ name: 'second use' })));
    expectError(otherBody, 409, 'invalid_request_error', 'Idempotency-Key', 'different request');
    // Retrying it can never succeed: the SDK is told not to.
    expect(otherBody.headers.get('x-should-retry')).toBe('false');
    const otherPath = await api('POST', '/v1/agents', withKey(idempotencyKey, { name: 'first use', model: MODELS.priced }));
    expectError(otherPath, 409, 'invalid_request_error', 'Idempotency-Key');
    expect(await deploymentsNamed('second use')).toEqual([]);

    const other = apiClient(stack.url, (await stack.createKey()).secret);
    const otherWorld = await deploymentWorld(other);
    expectOk(await other('POST', '/v1/deployments', withKey(idempotencyKey, otherWorld.body({ name: 'first use' }))));
  });

  test('the key\'s form: 1 to 255 printable ASCII characters, named in the 400; ignored on GET', async () => {
    const body = world.body({ name: 'form' });
    expectError(await api('POST', '/v1/deployments', withKey('k'.repeat(256), body)), 400, 'invalid_request_error', 'Idempotency-Key', '255');
    expectError(await api('POST', '/v1/deployments', withKey('tab\there', body)), 400, 'invalid_request_error', 'Idempotency-Key');
    expect((await api('POST', '/v1/deployments', withKey(`${'k'.repeat(250)} key`, body))).status).toBe(200);
    expect((await api('GET', '/v1/deployments', { headers: { 'idempotency-key': 'tab\there' } })).status).toBe(200);
  });

  test('a request refused before it ran does not hold the key; an answer the operation gave is kept, errors too', async () => {
    const idempotencyKey = `refused-${randomBase62(12)}`;
    expectError(await api('POST', '/v1/deployments', withKey(idempotencyKey, { name: 'no agent' })), 400, 'invalid_request_error');
    expect(await storedRow(idempotencyKey)).toBeUndefined();
    expectOk(await api('POST', '/v1/deployments', withKey(idempotencyKey, world.body({ name: 'valid at last' }))));

    // The deployments service answered 404 (no such agent): that is the operation's answer.
    const missingAgent = `missing-${randomBase62(12)}`;
    const body = world.body({ name: 'missing agent', agent: newId('agent') });
    const first = await api('POST', '/v1/deployments', withKey(missingAgent, body));
    expectError(first, 404, 'not_found_error');
    const retry = await api('POST', '/v1/deployments', withKey(missingAgent, body));
    // The same error, with this request's id in the envelope as in its header.
    expectError(retry, 404, 'not_found_error', first.body.error.message);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
  });

  test('a retry while the first request still runs is 409 (retry after 1 s); once it answered, the retry gets its answer', async () => {
    // The create is held on the bus: the deployments service is stopped and this connection
    // takes the request, to hand it to the service again once the retry has been answered.
    const infra = await infrastructure();
    const nc: NatsConnection = await connect({ servers: infra.natsUrl });
    try {
      await stack.stopService('deployments');
      const holder = nc.subscribe(rpcSubject(`t${stack.id}`, deploymentSubjects.create), { max: 1 });
      const held = (async () => {
        for await (const msg of holder) return msg;
        throw new Error('no create arrived');
      })() as Promise<Msg>;
      await nc.flush();

      const idempotencyKey = `concurrent-${randomBase62(12)}`;
      const body = world.body({ name: 'held create' });
      const first = api('POST', '/v1/deployments', withKey(idempotencyKey, body));
      const message = await held;
      const retry = await api('POST', '/v1/deployments', withKey(idempotencyKey, body));
      expectError(retry, 409, 'invalid_request_error', 'Idempotency-Key', 'still in progress');
      expect(retry.headers.get('retry-after')).toBe('1');

      await stack.startService('deployments');
      nc.publish(message.subject, message.data, { reply: message.reply, headers: message.headers });
      const answered = await first;
      expect(answered.status).toBe(200);
      const after = await api('POST', '/v1/deployments', withKey(idempotencyKey, body));
      expect(after.body).toEqual(answered.body);
      expect(after.headers.get('idempotent-replayed')).toBe('true');
      expect((await deploymentsNamed('held create')).map((d) => d.id)).toEqual([answered.body.id]);
    } finally {
      if (!stack.services.has('deployments')) await stack.startService('deployments');
      await nc.close();
    }
  });
});

describeEachSdk('the SDK retrying with an Idempotency-Key', (sdk) => {
  test('the first answer is lost on the way back: the SDK\'s retry gets it, one agent exists', async () => {
    const proxy = await TcpProxy.start({ host: '127.0.0.1', port: stack.gateway.port });
    try {
      const client = new sdk.Anthropic({ apiKey: key, baseURL: `http://127.0.0.1:${proxy.port}`, maxRetries: 2 });
      proxy.dropReplies();
      const name = `lost answer ${randomBase62(6)}`;
      const creating = client.beta.agents.create({ name, model: MODELS.priced }, { headers: { 'Idempotency-Key': `sdk-${randomBase62(12)}` } });
      // The first attempt ran; its answer never reaches the client. Closing the connection is
      // what the client then sees, and it retries.
      const [stored] = await eventually('the first attempt\'s agent', async () => ((agents) => (agents.length > 0 ? agents : undefined))(await agentsNamed(name)));
      proxy.thaw();
      const agent = await creating;
      expect(agent.id).toBe(stored!.id);
      expect((await agentsNamed(name)).map((a) => a.id)).toEqual([agent.id]);
    } finally {
      await proxy.stop();
    }
  });

  test('the first attempt fails retryably (503, not kept): the SDK\'s retry runs it, one deployment exists', async () => {
    let refused = 0;
    const client = new sdk.Anthropic({
      apiKey: key,
      baseURL: stack.url,
      maxRetries: 2,
      // The deployments service is back once the client has seen the refusal.
      fetch: (async (input: string | URL | Request, init?: RequestInit) => {
        const response = await fetch(input, init);
        if (response.status === 503 && refused++ === 0) await stack.startService('deployments');
        return response;
      }) as typeof fetch,
    });
    await stack.stopService('deployments');
    const name = `after a refusal ${randomBase62(6)}`;
    const deployment = await client.beta.deployments.create(
      {
        name,
        agent: world.agent.id,
        environment_id: world.environment.id,
        initial_events: [{ type: 'user.message', content: [{ type: 'text', text: 'Go' }] }],
      },
      { headers: { 'Idempotency-Key': `sdk-${randomBase62(12)}` } },
    );
    expect(refused).toBe(1);
    expect((await deploymentsNamed(name)).map((d) => d.id)).toEqual([deployment.id]);
  });
});

describe('24 hours', () => {
  test('a key is kept 24 h: then it runs again, and the sweep deletes expired rows', async () => {
    const kept = `day-${randomBase62(12)}`;
    const swept = `swept-${randomBase62(12)}`;
    const body = world.body({ name: 'a day old' });
    const first = expectOk(await api('POST', '/v1/deployments', withKey(kept, body)));
    expectOk(await api('POST', '/v1/deployments', withKey(swept, world.body({ name: 'swept' }))));

    clock.advance(24 * 60 * 60 * 1000 - 1);
    const within = await api('POST', '/v1/deployments', withKey(kept, body));
    expect(within.headers.get('idempotent-replayed')).toBe('true');
    expect(within.body.id).toBe(first.id);

    clock.advance(1);
    const after = await api('POST', '/v1/deployments', withKey(kept, body));
    expect(after.status).toBe(200);
    expect(after.headers.get('idempotent-replayed')).toBeNull();
    expect(after.body.id).not.toBe(first.id);

    expect(await stack.gateway.idempotency.deleteExpired()).toBeGreaterThan(0);
    expect(await storedRow(swept)).toBeUndefined();
    // Taken again 24 h later, the key's row is a new one and stays.
    expect((await storedRow(kept))?.status).toBe(200);
  });
});
