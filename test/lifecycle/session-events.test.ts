/**
 * A session's event log through the official SDK: a fire's initial events are the first events
 * of its session; `events.send` takes every user event kind the SDK sends and refuses bad ones
 * naming the field; `events.list` pages both ways; status follows status events; tenant
 * isolation, read-only keys and archived sessions.
 */
import type Anthropic from '@anthropic-ai/sdk';
import { describeEachSdk, type SdkUnderTest } from '../support/sdk';
import { beforeAll, describe, expect, test } from 'bun:test';
import { systemContext } from '@shared/bus/call-context';
import { deploymentSubjects } from '@shared/bus/subjects/deployments';
import { sessionEventSubjects } from '@shared/bus/subjects/session-events';
import { sessionSubjects } from '@shared/bus/subjects/sessions';
import { liveFeedSubject } from '@shared/bus/live-feeds';
import { eventSubject } from '@shared/bus/streams';
import { newId } from '@shared/ids/ids';
import type { NewSessionEventBody } from '@shared/schema/session-event';
import { findOwnedRow } from '@shared/db/find-owned-row';
import { sessions } from '../../services/deployments/src/db/schema';
import { appendToSessionLog } from '../../services/deployments/src/db/session-log';
import { outcomeIdOf } from '../../services/deployments/src/domain/session-events';
import { apiClient } from '../support/api';
import { expectError, expectOk, sdkFailure } from '../support/expect';
import { createDeployment, deploymentWorld, MODELS, useTwoTenantStack } from '../support/fixtures';
import { expectSdkShape } from '../support/sdk-shape';

/** The SDK version the current block runs under (each block sets it in its beforeAll). */
let sdk: SdkUnderTest;

const t = useTwoTenantStack({ services: ['catalog', 'deployments', 'vaults'] });
let client: Anthropic;
let world: Awaited<ReturnType<typeof deploymentWorld>>;
let deployment: any;

const text = (value: string) => ({ type: 'text' as const, text: value });
const outcome = { type: 'user.define_outcome' as const, description: 'A summary', rubric: { type: 'text' as const, content: 'Short' } };
const INITIAL = [{ type: 'user.message', content: [text('Go')] }, outcome, { type: 'user.message', content: [text('Then')] }, { type: 'system.message', content: [text('Be brief')] }];

/** A new session, made by a manual run of the deployment (the fire path). */
async function firedSession(): Promise<string> {
  const run = await client.beta.deployments.run(deployment.id);
  return run.session_id!;
}

/** Appends events as the runtime will (next issue): under the session's lock, after its last sequence. */
async function appendAsRuntime(sessionId: string, events: Array<Record<string, unknown>>) {
  const db = t.stack.service('deployments').database.db;
  const { rows } = await db.transaction(async (tx) => {
    const session = (await findOwnedRow(tx, sessions, t.mine.tenant, sessionId, { lock: true }))!;
    return appendToSessionLog(tx, session, events as NewSessionEventBody[], new Date());
  });
  return rows;
}


beforeAll(async () => {
  world = await deploymentWorld(t.api, { model: MODELS.priced });
  deployment = await createDeployment(t.api, world.body({ initial_events: INITIAL }));
});

describeEachSdk('session events through the SDK', (under) => {
  beforeAll(async () => {
    sdk = under;
    client = new sdk.Anthropic({ apiKey: t.mine.secret, baseURL: t.stack.url, maxRetries: 0 });
  });

  describe('the log of a fired session', () => {
    test('a manual run: its initial events first, in order, each with an id, processed_at and (outcomes) an outcome id', async () => {
      const run = await client.beta.deployments.run(deployment.id);
      const events = [];
      for await (const event of client.beta.sessions.events.list(run.session_id!)) events.push(event);
      expect(events.map((e) => e.type)).toEqual(['user.message', 'user.define_outcome', 'user.message', 'system.message']);
      for (const event of events) {
        expect(event.id).toMatch(/^sevt_[0-9A-Za-z]{24}$/);
        expect((event as any).processed_at).toBe(run.created_at);
        expectSdkShape(event, 'BetaManagedAgentsSessionEvent');
      }
      expect(events[1]).toEqual({
        id: events[1].id,
        type: 'user.define_outcome',
        description: 'A summary',
        rubric: { type: 'text', content: 'Short' },
        max_iterations: 3,
        outcome_id: outcomeIdOf(run.session_id!, 2),
        processed_at: run.created_at,
      });
    });

    test('a scheduled fire: the same', async () => {
      const scheduled = await createDeployment(t.api, world.body({ initial_events: INITIAL, schedule: { type: 'cron', expression: '*/5 * * * *', timezone: 'UTC' } }));
      const reply = await t.stack.service('deployments').client.call(deploymentSubjects.fire, systemContext(newId('request'), t.mine.tenant), {
        deployment_id: scheduled.id,
        trigger: { type: 'schedule', scheduled_at: '2026-07-01T00:05:00.000Z' },
      });
      if (reply.outcome !== 'fired') throw new Error(`not fired: ${reply.reason}`);
      const page = await client.beta.sessions.events.list(reply.run.session_id!);
      expect(page.data.map((e) => e.type)).toEqual(['user.message', 'user.define_outcome', 'user.message', 'system.message']);
    });
  });

  describe('events.send', () => {
    test('every user event kind the SDK sends, appended after the log in order and returned as logged', async () => {
      const sessionId = await firedSession();
      const [toolUse, mcpToolUse, customToolUse] = await appendAsRuntime(sessionId, [
        { type: 'session.status_running' },
        { type: 'agent.tool_use', name: 'bash', input: { command: 'ls' } },
        { type: 'agent.mcp_tool_use', name: 'search', mcp_server_name: 'docs', input: {} },
        { type: 'agent.custom_tool_use', name: 'lookup', input: { q: 'x' } },
        { type: 'session.status_idle', stop_reason: { type: 'requires_action', event_ids: [] }, stop_details: null },
      ]).then((rows) => rows.slice(1, 4));
      const sent = await client.beta.sessions.events.send(sessionId, {
        events: [
          { type: 'user.tool_confirmation', tool_use_id: toolUse.id, result: 'allow' },
          { type: 'user.tool_confirmation', tool_use_id: mcpToolUse.id, result: 'deny', deny_message: 'not now' },
          { type: 'user.custom_tool_result', custom_tool_use_id: customToolUse.id, content: [text('found it')], is_error: false },
          { type: 'user.tool_result', tool_use_id: toolUse.id, content: [text('a b c')] },
          { type: 'user.interrupt' },
          { type: 'user.define_outcome', description: 'Better', rubric: { type: 'text', content: 'Shorter' }, max_iterations: 5 },
          { type: 'user.message', content: [text('And now?')] },
          { type: 'system.message', content: [text('Answer briefly')] },
        ],
      });
      expect(sent.data!.map((e) => e.type)).toEqual([
        'user.tool_confirmation', 'user.tool_confirmation', 'user.custom_tool_result', 'user.tool_result',
        'user.interrupt', 'user.define_outcome', 'user.message', 'system.message',
      ]);
      for (const event of sent.data!) expectSdkShape(event, 'BetaManagedAgentsSessionEvent');
      expect(sent.data![5]).toMatchObject({ max_iterations: 5, outcome_id: outcomeIdOf(sessionId, 4 + 5 + 6) });

      const listed = [];
      for await (const event of client.beta.sessions.events.list(sessionId)) listed.push(event);
      expect(listed.map((e) => e.id).slice(-8)).toEqual(sent.data!.map((e) => e.id));
      expect(listed).toHaveLength(4 + 5 + 8);
      for (const event of listed) expectSdkShape(event, 'BetaManagedAgentsSessionEvent');
      // The status events moved the session; sending input invented nothing: it stays idle.
      expect((await client.beta.sessions.retrieve(sessionId)).status).toBe('idle');
    });

    test('status follows the status events appended to the log', async () => {
      const sessionId = await firedSession();
      expect((await t.api('GET', `/v1/sessions/${sessionId}`)).body.status).toBe('idle');
      await appendAsRuntime(sessionId, [{ type: 'session.status_running' }]);
      expect((await t.api('GET', `/v1/sessions/${sessionId}`)).body.status).toBe('running');
      await appendAsRuntime(sessionId, [{ type: 'session.status_rescheduled' }]);
      expect((await t.api('GET', `/v1/sessions/${sessionId}`)).body.status).toBe('rescheduling');
      await appendAsRuntime(sessionId, [{ type: 'session.status_terminated' }]);
      expect((await t.api('GET', `/v1/sessions/${sessionId}`)).body.status).toBe('terminated');
      // A terminated session has ended: it takes no more input.
      const refused = await t.api('POST', `/v1/sessions/${sessionId}/events`, { body: { events: [{ type: 'user.interrupt' }] } });
      expectError(refused, 400, 'invalid_request_error', 'terminated');
      const types = (await client.beta.sessions.events.list(sessionId, { types: ['session.status_running', 'session.status_terminated'] })).data.map((e) => e.type);
      expect(types).toEqual(['session.status_running', 'session.status_terminated']);
    });

    test('refusals name the field', async () => {
      const sessionId = await firedSession();
      const send = (events: unknown[]) => t.api('POST', `/v1/sessions/${sessionId}/events`, { body: { events } });
      expectError(await send([]), 400, 'invalid_request_error', 'events');
      expectError(await send([{ type: 'agent.message', content: [] }]), 400, 'invalid_request_error', 'events.0', 'user.message');
      expectError(await send([{ type: 'user.message' }]), 400, 'invalid_request_error', 'events.0.content');
      expectError(await send([{ type: 'user.message', content: [text('')] }]), 400, 'invalid_request_error', 'events.0.content.0.text');
      expectError(await send([{ type: 'user.message', content: [text('a')], extra: 1 }]), 400, 'invalid_request_error', 'events.0.extra');
      expectError(await send(Array.from({ length: 51 }, () => ({ type: 'user.interrupt' }))), 400, 'invalid_request_error', 'events', '50');
      expectError(
        await send([{ type: 'user.tool_confirmation', tool_use_id: newId('sessionEvent'), result: 'allow', deny_message: 'x' }]),
        400, 'invalid_request_error', 'events.0.deny_message',
      );
      expectError(
        await send([{ type: 'user.tool_confirmation', tool_use_id: newId('sessionEvent'), result: 'allow' }]),
        400, 'invalid_request_error', 'events.0.tool_use_id', 'no event',
      );
      expectError(await send([{ type: 'user.tool_result', tool_use_id: 'toolu_1' }]), 400, 'invalid_request_error', 'events.0.tool_use_id');
      const [message] = (await client.beta.sessions.events.list(sessionId)).data;
      expectError(
        await send([{ type: 'user.custom_tool_result', custom_tool_use_id: message.id }]),
        400, 'invalid_request_error', 'events.0.custom_tool_use_id', 'is a user.message event',
      );
      expectError(await send([{ type: 'system.message', content: [text('x')] }]), 400, 'invalid_request_error', 'events.0', 'system.message');
      expectError(
        await send([{ type: 'user.message', content: [{ type: 'image', source: { type: 'file', file_id: 'file_000000000000000000000000' } }] }]),
        404, 'not_found_error', 'events.0.content.0.source.file_id',
      );
      expectError(await send([{ type: 'user.define_outcome', description: 'x', rubric: { type: 'text', content: 'y' }, max_iterations: 21 }]), 400, 'invalid_request_error', 'events.0.max_iterations');
      // Nothing of the refused sends reached the log.
      expect((await client.beta.sessions.events.list(sessionId)).data).toHaveLength(4);
    });

    test("a model that does not accept system.message: refused naming the event", async () => {
      const other = await deploymentWorld(t.api, { model: MODELS.noSystemMessages });
      const d = await createDeployment(t.api, other.body());
      const run = expectOk(await t.api('POST', `/v1/deployments/${d.id}/run`));
      const res = await t.api('POST', `/v1/sessions/${run.session_id}/events`, {
        body: { events: [{ type: 'user.message', content: [text('a')] }, { type: 'system.message', content: [text('b')] }] },
      });
      expectError(res, 400, 'invalid_request_error', 'events.1', 'system.message');
    });

    test("another tenant's session is not found; a read-only key cannot send; an archived session takes no events", async () => {
      const sessionId = await firedSession();
      const body = { events: [{ type: 'user.message', content: [text('hi')] }] };
      expectError(await t.other('POST', `/v1/sessions/${sessionId}/events`, { body }), 404, 'not_found_error');
      expectError(await t.other('GET', `/v1/sessions/${sessionId}/events`), 404, 'not_found_error');
      expectError(await t.other('GET', `/v1/sessions/${sessionId}/events/stream`), 404, 'not_found_error');
      const readOnly = apiClient(t.stack.url, (await t.stack.createKey({ org: t.mine.tenant.organization_id, workspace: t.mine.tenant.workspace_id, scope: 'read_only' })).secret);
      expectError(await readOnly('POST', `/v1/sessions/${sessionId}/events`, { body }), 403, 'permission_error');
      expectOk(await readOnly('GET', `/v1/sessions/${sessionId}/events`));
      expectError(await t.api('POST', '/v1/sessions/sesn_000000000000000000000000/events', { body }), 404, 'not_found_error');

      await client.beta.sessions.archive(sessionId);
      const err = await sdkFailure(client.beta.sessions.events.send(sessionId, body as any));
      expect(err.status).toBe(400);
      expect(err.error.error.message).toContain('archived');
      // Its log is still read.
      expect((await client.beta.sessions.events.list(sessionId)).data).toHaveLength(4);
    });
  });

  describe('events.list', () => {
    let sessionId: string;
    let all: any[];
    beforeAll(async () => {
      sessionId = await firedSession();
      for (let i = 0; i < 3; i++) {
        await client.beta.sessions.events.send(sessionId, { events: [{ type: 'user.message', content: [text(`m${i}`)] }, { type: 'user.interrupt' }] });
      }
      all = expectOk(await t.api('GET', `/v1/sessions/${sessionId}/events`, { query: { limit: '1000' } })).data;
      expect(all).toHaveLength(4 + 6);
    });

    test('oldest first by default, newest first with order=desc; the SDK follows next_page to the end', async () => {
      const ids = (list: any[]) => list.map((e) => e.id);
      const asc = [];
      for await (const event of client.beta.sessions.events.list(sessionId, { limit: 3 })) asc.push(event);
      expect(ids(asc)).toEqual(ids(all));
      const desc = [];
      for await (const event of client.beta.sessions.events.list(sessionId, { limit: 3, order: 'desc' })) desc.push(event);
      expect(ids(desc)).toEqual(ids(all).reverse());
    });

    test('prev_page goes back a page, in the same order; filters: types and processed_at bounds', async () => {
      const first = expectOk(await t.api('GET', `/v1/sessions/${sessionId}/events`, { query: { limit: '4' } }));
      expect(first.prev_page).toBeNull();
      const second = expectOk(await t.api('GET', `/v1/sessions/${sessionId}/events`, { query: { limit: '4', page: first.next_page } }));
      expect(second.data.map((e: any) => e.id)).toEqual(all.slice(4, 8).map((e) => e.id));
      const back = expectOk(await t.api('GET', `/v1/sessions/${sessionId}/events`, { query: { limit: '4', page: second.prev_page } }));
      expect(back.data.map((e: any) => e.id)).toEqual(all.slice(0, 4).map((e) => e.id));
      expect(back.prev_page).toBeNull();

      const interrupts = expectOk(await t.api('GET', `/v1/sessions/${sessionId}/events?types[]=user.interrupt`));
      expect(interrupts.data.map((e: any) => e.type)).toEqual(['user.interrupt', 'user.interrupt', 'user.interrupt']);
      const initial = all[0].processed_at;
      const later = expectOk(await t.api('GET', `/v1/sessions/${sessionId}/events`, { query: { 'created_at[gt]': initial, limit: '100' } }));
      expect(later.data.every((e: any) => e.processed_at > initial)).toBe(true);
      expectError(await t.api('GET', `/v1/sessions/${sessionId}/events?types[]=user.nope`), 400, 'invalid_request_error', 'types[]');
      expectError(await t.api('GET', `/v1/sessions/${sessionId}/events`, { query: { limit: '1001' } }), 400, 'invalid_request_error', 'limit');
      // A cursor is bound to its session.
      const otherSession = await firedSession();
      expectError(await t.api('GET', `/v1/sessions/${otherSession}/events`, { query: { limit: '4', page: first.next_page } }), 400, 'invalid_request_error', 'cursor');
    });
  });
});

describe('the log as streams and the runtime follow it (the bus subject)', () => {
  test('the events after a sequence, and the log\'s end: from the events when the read reached it, asked when more follow', async () => {
    const run = expectOk(await t.api('POST', `/v1/deployments/${deployment.id}/run`));
    const sessionId = run.session_id as string;
    await appendAsRuntime(sessionId, [{ type: 'session.status_running' }, { type: 'session.status_idle', stop_reason: { type: 'end_turn' }, stop_details: null }]);
    const follow = (after: { sequence: number } | null, limit = 100) =>
      t.stack.service('deployments').client.call(sessionEventSubjects.follow, systemContext(newId('request'), t.mine.tenant), { session_id: sessionId, after, limit });
    const sequences = (reply: Awaited<ReturnType<typeof follow>>) => reply.events.map((e) => e.sequence);

    const page = await follow({ sequence: 1 }, 2);
    expect([sequences(page), page.from, page.last]).toEqual([[2, 3], 1, 6]);
    const rest = await follow({ sequence: 3 });
    expect([sequences(rest), rest.from, rest.last]).toEqual([[4, 5, 6], 3, 6]);
    expect(rest.events.at(-1)!.event).toMatchObject({ type: 'session.status_idle' });
    const atEnd = await follow({ sequence: 6 });
    expect([sequences(atEnd), atEnd.last]).toEqual([[], 6]);
    // Without a position: from the end, nothing yet.
    const fromEnd = await follow(null);
    expect([sequences(fromEnd), fromEnd.from, fromEnd.last]).toEqual([[], 6, 6]);
    await expect(
      t.stack.service('deployments').client.call(sessionEventSubjects.follow, systemContext(newId('request'), t.theirs.tenant), { session_id: sessionId, after: { sequence: 0 }, limit: 10 }),
    ).rejects.toMatchObject({ type: 'not_found_error' });
  });

  test('with_session (the runtime\'s step): the session as sessions.get presents it, with the same read of the log; only for its tenant', async () => {
    const run = expectOk(await t.api('POST', `/v1/deployments/${deployment.id}/run`));
    const sessionId = run.session_id as string;
    await appendAsRuntime(sessionId, [{ type: 'session.status_running' }]);
    const deployments = t.stack.service('deployments').client;
    const call = (tenant: typeof t.mine.tenant, request: { with_session?: boolean }) =>
      deployments.call(sessionEventSubjects.follow, systemContext(newId('request'), tenant), { session_id: sessionId, after: { sequence: 3 }, limit: 100, ...request });
    const both = await call(t.mine.tenant, { with_session: true });
    const alone = await call(t.mine.tenant, {});
    expect(both.session).toEqual(await deployments.call(sessionSubjects.get, systemContext(newId('request'), t.mine.tenant), { session_id: sessionId }));
    expect(both.session!.status).toBe('running');
    expect(alone.session).toBeUndefined();
    expect({ ...both, session: undefined, revision: undefined }).toEqual({ ...alone, session: undefined, revision: undefined });
    // The row's revision, which a send's notice carries too (nothing has changed the row yet).
    expect(both.revision).toBe(0);
    expect(alone.revision).toBeUndefined();
    expect(both.events.map((e) => e.sequence)).toEqual([4, 5]);
    await expect(call(t.theirs.tenant, { with_session: true })).rejects.toMatchObject({ type: 'not_found_error' });
  });

  test("the runtime's append: a drive's own (caller_drives) records no notice, its events on the live feed; one too large for the feed gives the log's end", async () => {
    const run = expectOk(await t.api('POST', `/v1/deployments/${deployment.id}/run`));
    const sessionId = run.session_id as string;
    const deployments = t.stack.service('deployments');
    const prefix = t.stack.env('deployments').BUS_PREFIX!;
    const notices: number[] = [];
    const feed: Array<{ from: number; last: number; sequences: number[] }> = [];
    let heard: () => void = () => undefined;
    const noticeSub = deployments.nc.subscribe(eventSubject(prefix, 'sessions.log_appended'), {
      callback: (_err, msg) => {
        const { data } = msg.json<{ data: { session_id: string; sequence: number } }>();
        if (data.session_id === sessionId) notices.push(data.sequence);
        heard();
      },
    });
    const feedSub = deployments.nc.subscribe(liveFeedSubject(prefix, 'sessionEvents', sessionId), {
      callback: (_err, msg) => {
        const { from, last, events } = msg.json<{ from: number; last: number; events: Array<{ sequence: number }> }>();
        feed.push({ from, last, sequences: events.map((e) => e.sequence) });
        heard();
      },
    });
    await deployments.nc.flush();
    const append = (after: number, events: Array<Record<string, unknown>>, callerDrives: boolean) =>
      deployments.client.call(sessionEventSubjects.append, systemContext(newId('request'), t.mine.tenant), {
        session_id: sessionId,
        after_sequence: after,
        events: events as never,
        ...(callerDrives ? { caller_drives: true } : {}),
      });
    const until = async (done: () => boolean) => {
      while (!done()) await new Promise<void>((resolve) => (heard = resolve));
    };
    try {
      // The fired session's log holds its four initial events.
      const driven = await append(4, [{ type: 'session.status_running' }], true);
      expect([driven.from, driven.last]).toEqual([4, 5]);
      const long = { type: 'agent.message', content: [text('x'.repeat(70 * 1024))] };
      await append(5, [long], true);
      await append(6, [{ type: 'session.status_idle', stop_reason: { type: 'end_turn' }, stop_details: null }], false);
      await until(() => notices.includes(7) && feed.length === 3);
      // Only the append without caller_drives recorded a notice (the relay publishes in commit order).
      expect(notices).toEqual([7]);
      expect(feed).toEqual([
        { from: 4, last: 5, sequences: [5] },
        { from: 5, last: 6, sequences: [] },
        { from: 6, last: 7, sequences: [7] },
      ]);
    } finally {
      noticeSub.unsubscribe();
      feedSub.unsubscribe();
    }
  });
});
