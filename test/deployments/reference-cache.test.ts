import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { eventSubject } from '@shared/bus/streams';
import { rpcSubject } from '@shared/bus/subject';
import { referenceSubjects } from '@shared/bus/subjects/catalog';
import { eventually } from '../support/eventually';
import { expectError, expectOk } from '../support/expect';
import { archive, createAgent, createAgentVersion, createDeployment, createEnvironment, useDeploymentStack } from '../support/fixtures';

/**
 * The deployments service's reference cache (services/deployments/src/clients/reference-cache.ts)
 * through the real parts: the catalog's answers are kept per replica and dropped when the
 * catalog's own events say something changed. Invalidation travels by event, so a refusal that
 * depends on it is awaited with `eventually`: the check stays exact, only its moment is not.
 *
 * A probe connection watches the bus as a bystander: it counts the requests the catalog is
 * asked (`references.resolve`) and collects the catalog's events.
 */
const t = useDeploymentStack();
let probe: NatsConnection;
let catalogAsked = 0;
const catalogEvents: Array<{ type: string; data: Record<string, unknown> }> = [];

beforeAll(async () => {
  const env = t.stack.env('deployments');
  probe = await connect({ servers: env.NATS_URL! });
  probe.subscribe(rpcSubject(env.BUS_PREFIX!, referenceSubjects.resolve), { callback: () => void catalogAsked++ });
  probe.subscribe(eventSubject(env.BUS_PREFIX!, 'catalog.>'), { callback: (_err, msg) => void catalogEvents.push(msg.json()) });
  await probe.flush();
});
afterAll(() => probe?.close());

/** How many times the catalog was asked about references so far (every request already answered is counted). */
async function asked(): Promise<number> {
  await probe.flush();
  return catalogAsked;
}

const post = (body: Record<string, unknown>) => t.api('POST', '/v1/deployments', { body });

describe('the reference cache', () => {
  test('a create asks the catalog once; creates and fires naming the same references then ask it nothing', async () => {
    // Once the replica's event feed is live (it answers nothing from memory before).
    const agent = await createAgent(t.api);
    const environment = await createEnvironment(t.api);
    const body = t.world.body({ agent: agent.id, environment_id: environment.id });
    const first = await eventually('a create whose answer is kept', async () => {
      const before = await asked();
      const d = await createDeployment(t.api, body);
      const again = await asked();
      await createDeployment(t.api, body);
      return (await asked()) === again && again === before + 1 ? d : undefined;
    });
    const before = await asked();
    // A fire asks about the version the deployment pinned: the latest answered at creation.
    const run = expectOk(await t.api('POST', `/v1/deployments/${first.id}/run`));
    expect([typeof run.session_id, run.error]).toEqual(['string', null]);
    expect((await createDeployment(t.api, t.world.body({ agent: { type: 'agent', id: agent.id, version: 1 }, environment_id: environment.id }))).agent.version).toBe(1);
    expect(await asked()).toBe(before);
  });

  const ARCHIVED = [
    { kind: 'agent', create: createAgent, field: 'agent', named: (id: string) => [id, 'archived'], error: 'agent_archived_error' },
    { kind: 'environment', create: createEnvironment, field: 'environment_id', named: (id: string) => ['environment_id', id], error: 'environment_archived_error' },
  ] as const;
  for (const { kind, create, field, named, error } of ARCHIVED) {
    test(`archiving the ${kind} through the API makes a later create refuse it, and a fire record it`, async () => {
      const resource = await create(t.api);
      const d = await createDeployment(t.api, t.world.body({ [field]: resource.id }));
      await archive(t.api, kind, resource.id);
      const refused = await eventually('the archive to reach the reference cache', async () => {
        const response = await post(t.world.body({ [field]: resource.id }));
        return response.status === 200 ? undefined : response;
      });
      expectError(refused, 400, 'invalid_request_error', ...named(resource.id));
      const run = expectOk(await t.api('POST', `/v1/deployments/${d.id}/run`));
      expect([run.session_id, run.error?.type]).toEqual([null, error]);
    });
  }

  test('updating an agent announces catalog.agent.updated, and `agent: id` then resolves to the new version', async () => {
    const agent = await createAgent(t.api);
    expect((await createDeployment(t.api, t.world.body({ agent: agent.id }))).agent.version).toBe(1);
    const v2 = await createAgentVersion(t.api, agent);
    expect(v2.version).toBe(2);
    const d = await eventually('the new version to reach the reference cache', async () => {
      const created = await createDeployment(t.api, t.world.body({ agent: agent.id }));
      return created.agent.version === 2 ? created : undefined;
    });
    expect(d.agent).toEqual({ type: 'agent', id: agent.id, version: 2 });
    // The probe hears the event on its own connection, in its own time.
    const updated = await eventually('catalog.agent.updated on the bus', () => {
      const seen = catalogEvents.filter((e) => e.type === 'catalog.agent.updated');
      return seen.some((e) => e.data.agent_id === agent.id) ? seen : undefined;
    });
    expect(updated.find((e) => e.data.agent_id === agent.id)?.data).toEqual({ agent_id: agent.id });
  });

  // A replica that does not know them still needs the catalog: test/lifecycle/fire.test.ts ('infrastructure trouble').
  test('a replica that already knows the references fires with the catalog down', async () => {
    const known = await createDeployment(t.api, t.world.body());
    await t.stack.stopService('catalog');
    try {
      const run = expectOk(await t.api('POST', `/v1/deployments/${known.id}/run`));
      expect([typeof run.session_id, run.error]).toEqual(['string', null]);
    } finally {
      await t.stack.startService('catalog');
    }
  });
});
