/**
 * Appends group-committed (services/deployments/src/db/append-batch.ts): clients' sends and the
 * runtime's appends that arrive together share one transaction, and each keeps its own outcome,
 * as it had alone: its events at its own log's end, its row moved, its notice (or none), its
 * refusal (404, archived, 409 from its fence) without touching the others; a batch that cannot
 * be written together (a log ahead of its row) is written item by item. The batch function is
 * called directly against the real stack's database; the handlers' wiring through the bus last.
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import { asc, eq } from 'drizzle-orm';
import { systemContext } from '@shared/bus/call-context';
import { sessionEventSubjects } from '@shared/bus/subjects/session-events';
import { newId } from '@shared/ids/ids';
import type { NewSessionEventBody } from '@shared/schema/session-event';
import { appendBatch, type LogAppend } from '../../services/deployments/src/db/append-batch';
import type { AppendedToLog } from '../../services/deployments/src/db/session-log';
import { sessionEventLog, sessions } from '../../services/deployments/src/db/schema';
import { lastSequence } from '../../services/deployments/src/db/session-events';
import { appendSessionEvents } from '../../services/deployments/src/db/session-log';
import { expectOk } from '../support/expect';
import { createDeployment, deploymentWorld, useTwoTenantStack, userMessage } from '../support/fixtures';

const t = useTwoTenantStack({ services: ['catalog', 'deployments', 'vaults'] });
let deployment: { id: string };
const db = () => t.stack.service('deployments').database.db;
const AT = new Date('2026-11-29T12:00:00.000Z');

const running = { type: 'session.status_running' } as NewSessionEventBody;
const idle = { type: 'session.status_idle', stop_reason: { type: 'end_turn' }, stop_details: null } as unknown as NewSessionEventBody;
const said = (text: string) => userMessage(text) as NewSessionEventBody;

beforeAll(async () => {
  const world = await deploymentWorld(t.api);
  deployment = await createDeployment(t.api, world.body({ initial_events: [userMessage('Go')] }));
});

/** A fired session of mine: its log holds one event. */
const firedSession = async (): Promise<string> => expectOk(await t.api('POST', `/v1/deployments/${deployment.id}/run`)).session_id as string;

const sent = (sessionId: string, text: string): LogAppend => ({ appender: 'client', tenant: t.mine.tenant, sessionId, events: [said(text)], references: [] });
const fenced = (sessionId: string, afterSequence: number, events: NewSessionEventBody[], callerDrives = true): LogAppend => ({
  appender: 'runtime',
  tenant: t.mine.tenant,
  sessionId,
  afterSequence,
  events,
  callerDrives,
});

const logOf = async (sessionId: string) =>
  (
    await db()
      .select({ sequence: sessionEventLog.sequence, type: sessionEventLog.type })
      .from(sessionEventLog)
      .where(eq(sessionEventLog.sessionId, sessionId))
      .orderBy(asc(sessionEventLog.sequence))
  ).map((row) => `${row.sequence}:${row.type}`);

const rowOf = async (sessionId: string) =>
  (await db().select({ last: sessions.lastSequence, status: sessions.status }).from(sessions).where(eq(sessions.id, sessionId)))[0]!;

const landed = (outcome: { ok: boolean; value?: AppendedToLog; error?: unknown }): AppendedToLog => {
  if (!outcome.ok) throw new Error(`expected the append to land: ${String(outcome.error)}`);
  return outcome.value!;
};
const refusal = (outcome: { ok: boolean; error?: unknown }) => (outcome.ok ? 'landed' : `${(outcome.error as { status?: number }).status} ${(outcome.error as Error).message}`);

describe('a batch of appends', () => {
  test('each lands at its own log end, moves its row and records its own notice', async () => {
    const [a, b, c] = [await firedSession(), await firedSession(), await firedSession()];
    const outcomes = await appendBatch(db(), [sent(a, 'hello'), fenced(b, 1, [running]), fenced(c, 1, [running, idle], false)], () => AT);
    const [toA, toB, toC] = outcomes.map(landed);
    expect(toA.rows.map((r) => r.sequence)).toEqual([2]);
    expect(toA.notice?.data).toMatchObject({ session_id: a, sequence: 2, appended: 1 });
    expect(toB.rows.map((r) => r.sequence)).toEqual([2]);
    expect(toB.notice).toBeUndefined(); // the drive goes on from its reply
    expect(toC.rows.map((r) => r.sequence)).toEqual([2, 3]);
    expect(toC.notice?.data).toMatchObject({ session_id: c, sequence: 3, appended: 2 });
    expect(await logOf(a)).toEqual(['1:user.message', '2:user.message']);
    expect(await logOf(c)).toEqual(['1:user.message', '2:session.status_running', '3:session.status_idle']);
    expect(await rowOf(b)).toEqual({ last: 2, status: 'running' });
    expect(await rowOf(c)).toEqual({ last: 3, status: 'idle' });
  });

  test("a refusal is the item's own: the others land", async () => {
    const [mine, moved, archived, fine] = [await firedSession(), await firedSession(), await firedSession(), await firedSession()];
    expectOk(await t.api('POST', `/v1/sessions/${archived}/archive`));
    const theirs = { ...sent(mine, 'not yours'), tenant: t.theirs.tenant };
    const outcomes = await appendBatch(
      db(),
      [theirs, sent('sesn_missing000000000000000', 'nobody'), fenced(moved, 5, [running]), sent(archived, 'too late'), fenced(archived, 1, [running]), sent(fine, 'ok')],
      () => AT,
    );
    expect(outcomes.map(refusal)).toEqual([
      `404 session '${mine}' not found`, // another tenant's session is no session
      `404 session 'sesn_missing000000000000000' not found`,
      `409 after_sequence: the log of session '${moved}' ends at sequence 1, not 5`,
      `400 session '${archived}' is archived and cannot receive events`,
      'landed', // the runtime still records a turn's end on an archived session
      'landed',
    ]);
    expect(await logOf(mine)).toEqual(['1:user.message']);
    expect(await logOf(moved)).toEqual(['1:user.message']);
    expect(await logOf(archived)).toEqual(['1:user.message', '2:session.status_running']);
    expect(await logOf(fine)).toEqual(['1:user.message', '2:user.message']);
  });

  test('a log ahead of its row (an older replica appended) makes the batch go item by item, each still at its log end', async () => {
    const [behind, other] = [await firedSession(), await firedSession()];
    // What a replica older than sessions.last_sequence does: appends at the log's end, leaves the row.
    await db().transaction(async (tx) => {
      await tx.select({ id: sessions.id }).from(sessions).where(eq(sessions.id, behind)).for('update');
      await appendSessionEvents(tx, [{ sessionId: behind, events: [said('old replica')], at: AT, after: await lastSequence(tx, behind) }]);
    });
    expect(await rowOf(behind)).toMatchObject({ last: 1 });
    const outcomes = await appendBatch(db(), [sent(behind, 'after it'), sent(other, 'beside it')], () => AT);
    expect(landed(outcomes[0]!).rows.map((r) => r.sequence)).toEqual([3]);
    expect(landed(outcomes[1]!).rows.map((r) => r.sequence)).toEqual([2]);
    expect(await logOf(behind)).toEqual(['1:user.message', '2:user.message', '3:user.message']);
    expect(await rowOf(behind)).toMatchObject({ last: 3 });
  });
});

describe('through the bus', () => {
  test('appends sent at once to many sessions each land once, in order per session', async () => {
    const ids = await Promise.all(Array.from({ length: 12 }, () => firedSession()));
    const bus = t.stack.service('deployments').client;
    const append = (sessionId: string, after: number, events: NewSessionEventBody[]) =>
      bus.call(sessionEventSubjects.append, systemContext(newId('request'), t.mine.tenant), { session_id: sessionId, after_sequence: after, events: events as never });
    const sends = await Promise.all(ids.map((id) => t.api('POST', `/v1/sessions/${id}/events`, { body: { events: [userMessage('at once')] } })));
    for (const response of sends) expectOk(response);
    const starts = await Promise.all(ids.map((id) => append(id, 2, [running])));
    const ends = await Promise.all(ids.map((id) => append(id, 3, [idle])));
    expect(starts.map((reply) => reply.last)).toEqual(ids.map(() => 3));
    expect(ends.map((reply) => reply.last)).toEqual(ids.map(() => 4));
    for (const id of ids) {
      expect(await logOf(id)).toEqual(['1:user.message', '2:user.message', '3:session.status_running', '4:session.status_idle']);
      expect(await rowOf(id)).toEqual({ last: 4, status: 'idle' });
    }
  });
});
