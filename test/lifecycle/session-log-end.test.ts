/**
 * A session's log end on its row (`sessions.last_sequence`): set for a new session (created or
 * fired) with its initial events and moved by every append, so an append reads it with the row
 * it locks. While replicas older than the column still append, the row can be behind the log
 * (never ahead): an append then still lands at the log's true end, and the runtime's fenced append
 * answers 409 or accepts as the log, not the row, says.
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import { asc, eq } from 'drizzle-orm';
import { systemContext } from '@shared/bus/call-context';
import { sessionEventSubjects } from '@shared/bus/subjects/session-events';
import { newId } from '@shared/ids/ids';
import type { NewSessionEventBody } from '@shared/schema/session-event';
import { sessionEventLog, sessions } from '../../services/deployments/src/db/schema';
import { lastSequence } from '../../services/deployments/src/db/session-events';
import { appendSessionEvents } from '../../services/deployments/src/db/session-log';
import { outcomeIdOf } from '../../services/deployments/src/domain/session-events';
import { expectOk } from '../support/expect';
import { createDeployment, deploymentWorld, useTwoTenantStack, userMessage } from '../support/fixtures';

const t = useTwoTenantStack({ services: ['catalog', 'deployments', 'vaults'] });
let world: Awaited<ReturnType<typeof deploymentWorld>>;
let deployment: { id: string };

const INITIAL = [userMessage('Go'), userMessage('Then')];
const running = { type: 'session.status_running' };
const idle = { type: 'session.status_idle', stop_reason: { type: 'end_turn' }, stop_details: null };
const db = () => t.stack.service('deployments').database.db;

beforeAll(async () => {
  world = await deploymentWorld(t.api);
  deployment = await createDeployment(t.api, world.body({ initial_events: INITIAL }));
});

/** A fired session: its log holds INITIAL. */
async function firedSession(): Promise<string> {
  return expectOk(await t.api('POST', `/v1/deployments/${deployment.id}/run`)).session_id as string;
}

/** Where the session's row says its log ends, and where the log does. */
async function ends(sessionId: string): Promise<{ row: number; log: number }> {
  const [row] = await db().select({ last: sessions.lastSequence }).from(sessions).where(eq(sessions.id, sessionId));
  return { row: row!.last, log: await lastSequence(db(), sessionId) };
}

/** The log's sequences and types, in order. */
const logOf = (sessionId: string) =>
  db()
    .select({ sequence: sessionEventLog.sequence, type: sessionEventLog.type })
    .from(sessionEventLog)
    .where(eq(sessionEventLog.sessionId, sessionId))
    .orderBy(asc(sessionEventLog.sequence));

/**
 * What a replica older than `last_sequence` does: appends at the log's max under the session's
 * lock and leaves the column where it was, so the row falls behind the log.
 */
async function appendAsOlderReplica(sessionId: string, count: number): Promise<void> {
  await db().transaction(async (tx) => {
    await tx.select({ id: sessions.id }).from(sessions).where(eq(sessions.id, sessionId)).for('update');
    const events = Array.from({ length: count }, (_, i) => userMessage(`old ${i}`)) as NewSessionEventBody[];
    await appendSessionEvents(tx, [{ sessionId, events, at: new Date(), after: await lastSequence(tx, sessionId) }]);
  });
}

/** The runtime's fenced append (the bus subject, as the runtime calls it). */
const runtimeAppend = (sessionId: string, afterSequence: number, events: Array<Record<string, unknown>>) =>
  t.stack.service('deployments').client.call(sessionEventSubjects.append, systemContext(newId('request'), t.mine.tenant), {
    session_id: sessionId,
    after_sequence: afterSequence,
    events: events as never,
  });

/** A client's send (the API). */
async function send(sessionId: string, events: Array<Record<string, unknown>>): Promise<{ data: Array<{ id: string }> }> {
  return expectOk(await t.api('POST', `/v1/sessions/${sessionId}/events`, { body: { events } }));
}

describe('the row keeps the log end', () => {
  test('a new session, created or fired, holds its initial events\' end', async () => {
    expect(await ends(await firedSession())).toEqual({ row: 2, log: 2 });
    const created = expectOk(
      await t.api('POST', '/v1/sessions', { body: { agent: world.agent.id, environment_id: world.environment.id, initial_events: [...INITIAL, userMessage('More')] } }),
    );
    expect(await ends(created.id as string)).toEqual({ row: 3, log: 3 });
    const empty = expectOk(await t.api('POST', '/v1/sessions', { body: { agent: world.agent.id, environment_id: world.environment.id } }));
    expect(await ends(empty.id as string)).toEqual({ row: 0, log: 0 });
  });

  test('every append moves it: a send, the runtime\'s append, an update\'s session.updated', async () => {
    const sessionId = await firedSession();
    await send(sessionId, [userMessage('a'), userMessage('b')]);
    expect(await ends(sessionId)).toEqual({ row: 4, log: 4 });
    const appended = await runtimeAppend(sessionId, 4, [running, idle]);
    expect([appended.from, appended.last]).toEqual([4, 6]);
    expect(await ends(sessionId)).toEqual({ row: 6, log: 6 });
    expectOk(await t.api('POST', `/v1/sessions/${sessionId}`, { body: { title: 'renamed' } }));
    expect(await ends(sessionId)).toEqual({ row: 7, log: 7 });
    expect((await logOf(sessionId)).at(-1)).toEqual({ sequence: 7, type: 'session.updated' });
  });
});

describe('a row behind its log (older replicas still appending)', () => {
  test('a send lands at the log\'s true end, its outcome id from the true sequence, and brings the row in line', async () => {
    const sessionId = await firedSession();
    await appendAsOlderReplica(sessionId, 3);
    expect(await ends(sessionId)).toEqual({ row: 2, log: 5 });
    const outcome = { type: 'user.define_outcome', description: 'A summary', rubric: { type: 'text', content: 'Short' } };
    const sent = await send(sessionId, [userMessage('new'), outcome]);
    const page = expectOk(await t.api('GET', `/v1/sessions/${sessionId}/events`, { query: { limit: '100' } }));
    expect(page.data.map((e: { type: string }) => e.type)).toEqual([...Array(6).fill('user.message'), 'user.define_outcome']);
    expect(page.data.at(-1).outcome_id).toBe(outcomeIdOf(sessionId, 7));
    expect(page.data.slice(-2).map((e: { id: string }) => e.id)).toEqual(sent.data.map((e) => e.id));
    expect((await logOf(sessionId)).map((e) => e.sequence)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(await ends(sessionId)).toEqual({ row: 7, log: 7 });
  });

  test('a session an older replica created (its row at 0, its initial events logged) takes a send after them', async () => {
    const sessionId = await firedSession();
    await db().update(sessions).set({ lastSequence: 0 }).where(eq(sessions.id, sessionId));
    await send(sessionId, [userMessage('after')]);
    expect(await ends(sessionId)).toEqual({ row: 3, log: 3 });
  });

  test('the runtime\'s append: at the row\'s stale end, 409 with nothing written; at the log\'s true end, accepted', async () => {
    const sessionId = await firedSession();
    await appendAsOlderReplica(sessionId, 2);
    // The row says 2, as the runtime does: the insert collides, the log says 4.
    await expect(runtimeAppend(sessionId, 2, [running])).rejects.toMatchObject({ status: 409, message: expect.stringContaining('ends at sequence 4, not 2') });
    expect(await ends(sessionId)).toEqual({ row: 2, log: 4 });
    // The row says 2, the runtime 4: the log confirms the runtime.
    const appended = await runtimeAppend(sessionId, 4, [running, idle]);
    expect([appended.from, appended.last, appended.events.map((e) => e.sequence)]).toEqual([4, 6, [5, 6]]);
    expect(await ends(sessionId)).toEqual({ row: 6, log: 6 });
    expect((await logOf(sessionId)).slice(-2)).toEqual([
      { sequence: 5, type: 'session.status_running' },
      { sequence: 6, type: 'session.status_idle' },
    ]);
  });

  test('the runtime\'s append on a row behind the log, its after_sequence neither the row\'s nor the log\'s: 409', async () => {
    const sessionId = await firedSession();
    await appendAsOlderReplica(sessionId, 3);
    for (const after of [3, 6]) {
      await expect(runtimeAppend(sessionId, after, [running])).rejects.toMatchObject({ status: 409, message: expect.stringContaining(`ends at sequence 5, not ${after}`) });
    }
    expect(await ends(sessionId)).toEqual({ row: 2, log: 5 });
  });
});

describe('a row in line with its log', () => {
  test('the runtime\'s append at its end is accepted; behind or beyond it, 409 with nothing written', async () => {
    const sessionId = await firedSession();
    await runtimeAppend(sessionId, 2, [running]);
    for (const after of [2, 1, 4]) {
      await expect(runtimeAppend(sessionId, after, [idle])).rejects.toMatchObject({ status: 409, message: expect.stringContaining(`ends at sequence 3, not ${after}`) });
    }
    expect(await ends(sessionId)).toEqual({ row: 3, log: 3 });
    const appended = await runtimeAppend(sessionId, 3, [idle]);
    expect([appended.from, appended.last]).toEqual([3, 4]);
    expect(await ends(sessionId)).toEqual({ row: 4, log: 4 });
  });
});

describe('a collision on another key', () => {
  test('an event id already logged is refused as before the column (not a 409), whether the row is in line or behind, and nothing moves', async () => {
    const sessionId = await firedSession();
    const message = { type: 'agent.message', id: newId('sessionEvent'), content: [{ type: 'text', text: 'once' }] };
    await runtimeAppend(sessionId, 2, [message]);
    await expect(runtimeAppend(sessionId, 3, [message])).rejects.toMatchObject({ type: 'api_error', status: 500 });
    expect(await ends(sessionId)).toEqual({ row: 3, log: 3 });
    await appendAsOlderReplica(sessionId, 1);
    await expect(runtimeAppend(sessionId, 4, [message])).rejects.toMatchObject({ type: 'api_error', status: 500 });
    expect(await ends(sessionId)).toEqual({ row: 3, log: 4 });
  });
});
