import { describe, expect, test } from 'bun:test';
import type { SessionResource } from '@shared/schema/session';
import { abandonedCallEvents, workerOwedCalls } from '../../../services/runtime/src/domain/abandoned-calls';
import { buildModelRequest } from '../../../services/runtime/src/domain/model-request';
import { nextStep } from '../../../services/runtime/src/domain/next-step';
import { readLogState } from '../../../services/runtime/src/domain/session-log';
import { mountedSections } from '../../../services/runtime/src/domain/system-prompt';
import { idleFor, loggedEvents, sessionAgent, userMessage } from './session-log-fixture';

const store = (overrides: Record<string, unknown> = {}) =>
  ({
    id: 'sesrsc_1',
    created_at: 't',
    updated_at: 't',
    type: 'memory_store',
    memory_store_id: 'memstore_a',
    access: 'read_write',
    instructions: 'Keep notes on the customer here.',
    name: 'Customer notes',
    description: 'What we know of the customer',
    mount_path: '/mnt/memory/customer-notes',
    ...overrides,
  }) as SessionResource;

describe('the system prompt names what the session mounts', () => {
  test('each memory store with where, how and its instructions, after the agent prompt', () => {
    const sections = mountedSections([store(), store({ memory_store_id: 'memstore_b', access: 'read_only', instructions: null, name: 'Policies', description: '', mount_path: '/mnt/memory/policies' })], []);
    expect(sections).toHaveLength(1);
    expect(sections[0]).toContain('## Customer notes (/mnt/memory/customer-notes, read-write)\nWhat we know of the customer\nKeep notes on the customer here.');
    expect(sections[0]).toContain('## Policies (/mnt/memory/policies, read-only)');
    const request = buildModelRequest(sessionAgent({ system: 'You are helpful.' }), loggedEvents(userMessage('hi')), [], 100, sections);
    expect(request.system).toBe(`You are helpful.\n\n${sections[0]}`);
  });

  test('skills by name and description; nothing mounted adds nothing', () => {
    expect(mountedSections([], [])).toEqual([]);
    const [skills] = mountedSections([], [{ name: 'pdf-forms', description: 'Fill PDF forms' }]);
    expect(skills).toContain('- skills/pdf-forms/: Fill PDF forms');
    expect(buildModelRequest(sessionAgent(), loggedEvents(userMessage('hi')), [], 100, []).system).toBeUndefined();
  });
});

describe('a worker that ends its item with calls open', () => {
  const call = { type: 'agent.tool_use', id: 'sevt_call', name: 'bash', input: {} };
  const turn = [userMessage('go'), { type: 'session.status_running' }, { type: 'span.model_request_start', id: 'sevt_start' }, call, { type: 'span.model_request_end' }];

  test('owes the calls it was there to run; not the client\'s, not after an interrupt', () => {
    expect(workerOwedCalls(readLogState(loggedEvents(...turn))).map((u) => u.id)).toEqual(['sevt_call']);
    expect(workerOwedCalls(readLogState(loggedEvents(...turn, { type: 'user.tool_result', tool_use_id: 'sevt_call', content: [] })))).toEqual([]);
    expect(workerOwedCalls(readLogState(loggedEvents(...turn, { type: 'user.interrupt' })))).toEqual([]);
    const custom = { type: 'agent.custom_tool_use', id: 'sevt_custom', name: 'lookup', input: {} };
    expect(workerOwedCalls(readLogState(loggedEvents(userMessage('go'), custom)))).toEqual([]);
    const asked = { ...call, evaluated_permission: 'ask' };
    expect(workerOwedCalls(readLogState(loggedEvents(userMessage('go'), asked)))).toEqual([]);
  });

  test('closes them: a session.error, each call failed, the session idle and at rest', () => {
    const owed = workerOwedCalls(readLogState(loggedEvents(...turn)));
    const closing = abandonedCallEvents('work_1', owed);
    expect(closing.map((e) => e.type)).toEqual(['session.error', 'user.tool_result', 'session.status_idle']);
    expect(closing[0]).toMatchObject({ error: { type: 'unknown_error', retry_status: { type: 'exhausted' } } });
    expect(closing[1]).toMatchObject({ tool_use_id: 'sevt_call', is_error: true });
    const after = readLogState(loggedEvents(...turn, ...closing));
    expect(nextStep(after, { reached: false })).toEqual({ kind: 'none' });
    expect(after.lastStatus).toMatchObject(idleFor('retries_exhausted'));
  });
});
