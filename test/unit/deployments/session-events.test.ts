import { describe, expect, test } from 'bun:test';
import { newId } from '@shared/ids/ids';
import { checkSentEvents, checkToolReferences, outcomeIdOf, statusAfter, toolReferences } from '../../../services/deployments/src/domain/session-events';
import { messageOf } from '../../support/expect';

const user = { type: 'user.message' as const, content: [{ type: 'text' as const, text: 'hi' }] };
const system = { type: 'system.message' as const, content: [{ type: 'text' as const, text: 'be brief' }] };

describe('session event rules', () => {
  test('status follows the last status event; other events leave it', () => {
    expect(statusAfter([user])).toBeUndefined();
    expect(statusAfter([{ type: 'session.status_running' }, user])).toBe('running');
    expect(statusAfter([{ type: 'session.status_running' }, { type: 'session.status_idle' }])).toBe('idle');
    expect(statusAfter([{ type: 'session.status_rescheduled' }])).toBe('rescheduling');
    expect(statusAfter([{ type: 'session.status_terminated' }])).toBe('terminated');
  });

  test('system.message placement as for initial events, named under events; deny_message only with a denial', () => {
    expect(checkSentEvents([user, system])).toBe(1);
    expect(messageOf(() => checkSentEvents([system]))).toBe('events.0: system.message must immediately follow a user.message event');
    expect(messageOf(() => checkSentEvents([user, system, user]))).toBe('events.1: system.message must be the final event');
    const id = newId('sessionEvent');
    expect(messageOf(() => checkSentEvents([{ type: 'user.tool_confirmation', tool_use_id: id, result: 'allow', deny_message: 'no' }]))).toBe(
      "events.0.deny_message: only allowed when result is 'deny'",
    );
    expect(checkSentEvents([{ type: 'user.tool_confirmation', tool_use_id: id, result: 'deny', deny_message: 'no' }])).toBeUndefined();
  });

  test('tool references must name an event of the session of a kind they may answer', () => {
    const [a, b] = [newId('sessionEvent'), newId('sessionEvent')];
    const refs = toolReferences([
      user,
      { type: 'user.tool_confirmation', tool_use_id: a, result: 'allow' },
      { type: 'user.custom_tool_result', custom_tool_use_id: b },
    ]);
    expect(refs.map((r) => r.path)).toEqual(['events.1.tool_use_id', 'events.2.custom_tool_use_id']);
    checkToolReferences(refs, [{ id: a, type: 'agent.mcp_tool_use' }, { id: b, type: 'agent.custom_tool_use' }]);
    expect(messageOf(() => checkToolReferences(refs, [{ id: b, type: 'agent.custom_tool_use' }]))).toBe(`events.1.tool_use_id: no event ${a} in this session`);
    expect(messageOf(() => checkToolReferences(refs, [{ id: a, type: 'agent.tool_use' }, { id: b, type: 'agent.tool_use' }]))).toBe(
      `events.2.custom_tool_use_id: event ${b} is a agent.tool_use event, not agent.custom_tool_use`,
    );
  });

  test('outcome ids are derived from the place in the log: stable, distinct, of the outc_ form', () => {
    const session = newId('session');
    expect(outcomeIdOf(session, 2)).toBe(outcomeIdOf(session, 2));
    expect(outcomeIdOf(session, 2)).not.toBe(outcomeIdOf(session, 3));
    expect(outcomeIdOf(session, 2)).toMatch(/^outc_[0-9A-Za-z]{24}$/);
  });
});
