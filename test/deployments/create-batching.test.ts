/**
 * Creates are group-committed (shared/db/write-batcher.ts) and their events leave from memory
 * (OutboxRelay.publishCommitted): however many arrive at once, each is answered after its own
 * commit, is stored with its sealed tokens, and announces itself exactly once.
 */
import { expect, test } from 'bun:test';
import { connect } from '@nats-io/transport-node';
import { eq } from 'drizzle-orm';
import { streamName } from '@shared/bus/streams';
import { deploymentEvents } from '@shared/schema/deployment-events';
import { deploymentSecrets, outbox } from '../../services/deployments/src/db/schema';
import { createDeployment, repository, useDeploymentStack } from '../support/fixtures';
import { eventually } from '../support/eventually';
import { infrastructure } from '../support/infrastructure';
import { readStream } from '../support/streams';

const ctx = useDeploymentStack();

test('forty concurrent creates: all stored, each with its own tokens, each announced once and then gone from the outbox', async () => {
  const { api, world, stack } = ctx;
  const created = await Promise.all(
    Array.from({ length: 40 }, (_, i) =>
      createDeployment(api, world.body({ name: `batch ${i}`, resources: i % 2 === 0 ? [repository({ authorization_token: `ghp_batch_${i}` })] : [] })),
    ),
  );
  const ids = created.map((d) => d.id);
  expect(new Set(ids).size).toBe(40);
  for (const [i, d] of created.entries()) {
    expect((await api('GET', `/v1/deployments/${d.id}`)).body.name).toBe(`batch ${i}`);
  }

  const { db } = stack.service('deployments').database;
  const secrets = await db.select().from(deploymentSecrets);
  expect(new Set(secrets.map((s) => s.deploymentId))).toEqual(new Set(ids.filter((_, i) => i % 2 === 0)));

  // Published events leave the outbox.
  await eventually('every create event gone from the outbox', async () => {
    const rows = await db.select().from(outbox).where(eq(outbox.subject, deploymentEvents.createdUnscheduled.subject));
    return rows.some((r) => ids.includes((r.payload as any).data.deployment_id)) ? undefined : true;
  });
  const nc = await connect({ servers: (await infrastructure()).natsUrl });
  try {
    const stream = await readStream(nc, streamName(stack.env('deployments').BUS_PREFIX!, 'deployments'));
    const announced = stream.filter((m) => m.data.type === deploymentEvents.createdUnscheduled.subject).map((m) => m.data.data.deployment_id);
    expect(announced.filter((id) => ids.includes(id)).sort()).toEqual([...ids].sort());
  } finally {
    await nc.close();
  }
});
