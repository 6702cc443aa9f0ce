/**
 * One outbox row that the bus will not take must never hold back the others: the relay publishes
 * row by row, retries a failing row a bounded number of times, then parks it in the dead-letter
 * table (reported by a metric, an error log line and the `outbox` command) and the rest flow on.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { asc, eq } from 'drizzle-orm';
import { recordEvent } from '@shared/bus/outbox';
import { BusUnavailableError, OutboxRelay } from '@shared/bus/outbox-relay';
import { eventSubject, streamName } from '@shared/bus/streams';
import { newId } from '@shared/ids/ids';
import { setLogSink } from '@shared/log/logger';
import { deploymentEvents, type DeploymentSnapshot } from '@shared/schema/deployment-events';
import { ManualClock } from '@shared/time/clock';
import { outbox, outboxDeadLetters } from '../../services/deployments/src/db/schema';
import { apiClient } from '../support/api';
import { createDeployment, deploymentWorld } from '../support/fixtures';
import { infrastructure } from '../support/infrastructure';
import { Stack } from '../support/stack';
import { eventually } from '../support/eventually';
import { readStream } from '../support/streams';

const root = new URL('../..', import.meta.url).pathname;

/** `bun run outbox -- <args>` against the stack's deployments database, as an operator runs it. */
async function outboxCommand(stack: Stack, ...args: string[]) {
  const proc = Bun.spawn(['bun', 'run', 'outbox', '--', ...args], {
    cwd: root,
    env: { ...process.env, ...stack.env('deployments'), LOG_LEVEL: 'error' },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { stdout, stderr, code };
}

const tenants = [
  { organization_id: 'org_outboxA', workspace_id: 'wrkspc_outboxA' },
  { organization_id: 'org_outboxB', workspace_id: 'wrkspc_outboxB' },
];

const snapshot = (tenant: (typeof tenants)[number]): DeploymentSnapshot => ({
  deployment_id: newId('deployment'),
  organization_id: tenant.organization_id,
  workspace_id: tenant.workspace_id,
  schedule: { expression: '0 9 * * *', timezone: 'UTC' },
  status: 'active',
  archived: false,
  revision: 1,
});

describe('outbox dead letters', () => {
  const clock = new ManualClock('2026-11-24T09:00:00.000Z');
  let stack: Stack;
  let nc: NatsConnection;
  const extraStream = () => `${stack.env('deployments').BUS_PREFIX!.toUpperCase()}_WIDGETS`;

  beforeAll(async () => {
    stack = await Stack.start({ clock, services: ['deployments'], env: { OUTBOX_MAX_ATTEMPTS: '3', LOG_LEVEL: 'info' } });
    // The test drives the relay by hand, so every attempt is one the test made.
    await stack.service('deployments').relay!.stop();
    nc = await connect({ servers: (await infrastructure()).natsUrl });
  });

  afterAll(async () => {
    const jsm = await jetstreamManager(nc);
    await jsm.streams.delete(extraStream()).catch(() => undefined);
    await nc.close();
    await stack.stop();
  });

  test('an unpublishable row is parked after bounded retries; every other row of every tenant is delivered; re-drive publishes it', async () => {
    const runtime = stack.service('deployments');
    const { db } = runtime.database;
    const relay = runtime.relay!;
    const prefix = stack.env('deployments').BUS_PREFIX!;
    const maxPayload = runtime.nc.info!.max_payload;

    const published: string[] = [];
    const record = async (tenant: (typeof tenants)[number]) =>
      published.push(await recordEvent(db, outbox, deploymentEvents.created, tenant, snapshot(tenant), clock.now()));

    // Both tenants write before and after two rows the bus refuses: one over NATS max_payload,
    // one on a subject no stream captures (until an operator adds the stream).
    for (const tenant of tenants) await record(tenant);
    const oversize = newId('event');
    const secretBody = 'poison-body-'.repeat(Math.ceil(maxPayload / 12) + 100);
    await db.insert(outbox).values({
      eventId: oversize,
      subject: 'deployments.created',
      payload: { id: oversize, type: 'deployments.created', ...tenants[0], data: { blob: secretBody } },
      createdAt: clock.now(),
    });
    const homeless = newId('event');
    await db.insert(outbox).values({
      eventId: homeless,
      subject: 'widgets.created',
      payload: { id: homeless, type: 'widgets.created', ...tenants[1], data: { widget_id: 'wdg_1' } },
      createdAt: clock.now(),
    });
    for (const tenant of tenants) await record(tenant);
    for (const tenant of [...tenants].reverse()) await record(tenant);

    const logs: any[] = [];
    const previous = setLogSink((line) => logs.push(JSON.parse(line)));
    try {
      // Three attempts (OUTBOX_MAX_ATTEMPTS), each after the previous one's backoff.
      for (let attempt = 0; attempt < 3; attempt++) {
        await relay.relayAll();
        clock.advance(60 * 60_000);
      }
    } finally {
      setLogSink(previous);
    }

    const stream = await readStream(nc, streamName(prefix, 'deployments'));
    expect(stream.map((m) => m.msgId)).toEqual(published);
    expect(stream.every((m) => m.subject === eventSubject(prefix, 'deployments.created'))).toBe(true);
    expect(new Set(stream.map((m) => m.data.organization_id))).toEqual(new Set(tenants.map((t) => t.organization_id)));

    // Published events left the outbox; the refused ones were moved to the dead letters.
    expect(await db.select().from(outbox)).toEqual([]);
    const parked = await db.select().from(outboxDeadLetters).orderBy(asc(outboxDeadLetters.id));
    expect(parked.map((r) => [r.eventId, r.subject, r.attempts])).toEqual([
      [oversize, 'deployments.created', 3],
      [homeless, 'widgets.created', 3],
    ]);
    expect(parked[0]!.lastError).toContain('max_payload');
    expect(parked[0]!.payload).toEqual({ id: oversize, type: 'deployments.created', ...tenants[0], data: { blob: secretBody } });
    expect(parked[0]!.parkedAt.toISOString()).toBe('2026-11-24T11:00:00.000Z');

    // One error-level line per parked row, naming it but never carrying its payload.
    const errors = logs.filter((l) => l.level === 'error');
    expect(errors.map((l) => l.event_id).sort()).toEqual([oversize, homeless].sort());
    expect(JSON.stringify(logs)).not.toContain('poison-body-');

    const metrics = await (await fetch(`http://127.0.0.1:${runtime.healthPort()}/metrics`)).text();
    expect(metrics).toMatch(/^outbox_dead_letter_rows 2$/m);
    expect(metrics).toMatch(/^outbox_rows_parked_total 2$/m);

    const list = await outboxCommand(stack, 'list', '--service', 'deployments');
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(oversize);
    expect(list.stdout).toContain(homeless);
    expect(list.stdout).toContain('widgets.created');
    expect(list.stdout).not.toContain('poison-body-');

    // The operator adds the missing stream, then re-drives the row: it leaves at the next pass.
    const jsm = await jetstreamManager(nc);
    await jsm.streams.add({ name: extraStream(), subjects: [eventSubject(prefix, 'widgets.>')] });
    const redrive = await outboxCommand(stack, 'redrive', homeless, '--service', 'deployments');
    expect(redrive.code).toBe(0);
    expect(redrive.stdout).toContain(homeless);
    await relay.relayAll();

    const widgets = await readStream(nc, extraStream());
    expect(widgets.map((m) => [m.msgId, m.data.data])).toEqual([[homeless, { widget_id: 'wdg_1' }]]);
    expect((await db.select().from(outboxDeadLetters)).map((r) => r.eventId)).toEqual([oversize]);
    expect(await (await fetch(`http://127.0.0.1:${runtime.healthPort()}/metrics`)).text()).toMatch(/^outbox_dead_letter_rows 1$/m);

    // An id that is not parked is an error the operator sees, not silence.
    const unknown = await outboxCommand(stack, 'redrive', homeless, '--service', 'deployments');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(homeless);
    const rest = await outboxCommand(stack, 'list', '--service', 'deployments');
    expect(rest.stdout).toContain(oversize);
    expect(rest.stdout).not.toContain(homeless);
  });

  test('a failed publish waits out its backoff instead of being retried at once', async () => {
    const runtime = stack.service('deployments');
    const { db } = runtime.database;
    const id = newId('event');
    await db.insert(outbox).values({
      eventId: id,
      subject: 'gadgets.created',
      payload: { id, type: 'gadgets.created', ...tenants[0], data: {} },
      createdAt: clock.now(),
    });
    await runtime.relay!.relayAll();
    await runtime.relay!.relayAll();
    const [row] = await db.select().from(outbox).where(eq(outbox.eventId, id));
    expect(row!.attempts).toBe(1);
    expect(row!.nextAttemptAt!.getTime()).toBeGreaterThan(clock.now().getTime());
    expect(row!.lastError).toBeTruthy();
  });

  test('while JetStream does not answer, a failed publish is not counted against the row', async () => {
    const runtime = stack.service('deployments');
    const { db } = runtime.database;
    const id = await recordEvent(db, outbox, deploymentEvents.created, tenants[1], snapshot(tenants[1]), clock.now());
    const down = await connect({ servers: (await infrastructure()).natsUrl });
    await down.close();
    const relay = new OutboxRelay(down, db, { outbox, deadLetters: outboxDeadLetters }, { prefix: 'unused', logger: runtime.logger, clock, maxAttempts: 1 });
    await expect(relay.relayAll()).rejects.toThrow(BusUnavailableError);
    const [row] = await db.select().from(outbox).where(eq(outbox.eventId, id));
    expect([row!.attempts, row!.nextAttemptAt]).toEqual([0, null]);
    expect(await db.select().from(outboxDeadLetters).where(eq(outboxDeadLetters.eventId, id))).toEqual([]);
    // Once the bus answers again, the same row leaves at once.
    await runtime.relay!.relayAll();
    expect(await db.select().from(outbox).where(eq(outbox.eventId, id))).toEqual([]);
  });
});

describe('a session with a 1.5 MB initial event', () => {
  let stack: Stack;
  let nc: NatsConnection;

  beforeAll(async () => {
    stack = await Stack.start({ services: ['catalog', 'vaults', 'deployments'] });
    nc = await connect({ servers: (await infrastructure()).natsUrl });
  });

  afterAll(async () => {
    await nc.close();
    await stack.stop();
  });

  test('is announced by reference and never holds back later events of any tenant', async () => {
    const prefix = stack.env('deployments').BUS_PREFIX!;
    const mine = apiClient(stack.url, (await stack.createKey()).secret);
    const theirs = apiClient(stack.url, (await stack.createKey()).secret);

    const world = await deploymentWorld(mine);
    // 1.5 MiB of text, as six blocks of 256 KiB (the text block limit): far over NATS max_payload.
    const blocks = Array.from({ length: 6 }, (_, i) => ({ type: 'text', text: String(i).repeat(256 * 1024) }));
    const big = await createDeployment(mine, world.body({ initial_events: [{ type: 'user.message', content: blocks }] }));
    const run = await mine('POST', `/v1/deployments/${big.id}/run`);
    expect(run.status).toBe(200);
    expect(run.body.session_id).toBeString();

    const other = await createDeployment(theirs, (await deploymentWorld(theirs)).body());

    const announced = await eventually('the other tenant\'s deployments.created.unscheduled', async () => {
      const events = await readStream(nc, streamName(prefix, 'deployments'));
      return events.find((e) => e.data.data.deployment_id === other.id);
    });
    // No schedule: announced on the subject the scheduler does not consume.
    expect(announced.data.type).toBe('deployments.created.unscheduled');

    const session = await eventually('sessions.created', async () => {
      const events = await readStream(nc, streamName(prefix, 'sessions'));
      return events.find((e) => e.data.data.session_id === run.body.session_id);
    });
    // Ids, references and a count only: a consumer reads the session (initial events, resources) by id.
    expect(session.data.data).toEqual({
      session_id: run.body.session_id,
      deployment_id: big.id,
      deployment_run_id: run.body.id,
      organization_id: expect.any(String),
      workspace_id: expect.any(String),
      agent: big.agent,
      environment_id: big.environment_id,
      vault_ids: [],
      initial_events: 1,
    });
    expect(JSON.stringify(session.data).length).toBeLessThan(4096);
    const full = await mine('GET', `/v1/sessions/${run.body.session_id}`);
    expect(full.body.initial_events[0].content).toEqual(blocks);
  }, 60_000);
});
