import { describe, expect, test } from 'bun:test';
import { buildModelRequest, modelTools, type ToolsetCatalog } from '../../../services/runtime/src/domain/model-request';
import { idleFor, loggedEvents, sessionAgent, userMessage } from './session-log-fixture';

/** The Messages API request of a session's next turn, and the tools it offers, from the agent and the log alone. */

const schema = { type: 'object' as const, properties: {} };
const toolset: ToolsetCatalog = [
  { name: 'bash', description: 'runs a command', input_schema: schema },
  { name: 'read', description: 'reads a file', input_schema: schema },
];
const allow = { type: 'always_allow' };
const ask = { type: 'always_ask' };
const agentToolset = (defaults: { enabled: boolean; permission_policy: object }, configs: object[] = []) => ({
  type: 'agent_toolset_20260401',
  default_config: defaults,
  configs,
});
const custom = { type: 'custom', name: 'lookup', description: 'looks it up', input_schema: schema };

describe('modelTools', () => {
  test('no tools: nothing offered', () => {
    expect(modelTools(sessionAgent(), toolset)).toEqual({ tools: [], permissions: new Map() });
  });

  test("the toolset's tools as the worker defines them, each with its default permission", () => {
    const { tools, permissions } = modelTools(sessionAgent({ tools: [agentToolset({ enabled: true, permission_policy: allow })] as never }), toolset);
    expect(tools).toEqual([...toolset]);
    expect([...permissions]).toEqual([['bash', 'allow'], ['read', 'allow']]);
  });

  test("a tool's own config overrides the default: disabled, or asked before it runs", () => {
    const tools = [agentToolset({ enabled: true, permission_policy: allow }, [{ name: 'bash', permission_policy: ask }, { name: 'read', enabled: false }])];
    const offered = modelTools(sessionAgent({ tools } as never), toolset);
    expect(offered.tools.map((t) => t.name)).toEqual(['bash']);
    expect([...offered.permissions]).toEqual([['bash', 'ask']]);
  });

  test('a toolset disabled by default offers only what a config enables', () => {
    const tools = [agentToolset({ enabled: false, permission_policy: ask }, [{ name: 'read', enabled: true }])];
    const offered = modelTools(sessionAgent({ tools } as never), toolset);
    expect(offered.tools.map((t) => t.name)).toEqual(['read']);
    expect(offered.permissions.get('read')).toBe('ask');
  });

  test('custom tools are offered with no permission: their calls are the client’s; MCP toolsets are not offered', () => {
    const tools = [custom, { type: 'mcp_toolset', mcp_server_name: 'docs', default_config: { enabled: true, permission_policy: allow }, configs: [] }];
    const offered = modelTools(sessionAgent({ tools } as never), toolset);
    expect(offered.tools).toEqual([{ name: 'lookup', description: 'looks it up', input_schema: schema }]);
    expect(offered.permissions.size).toBe(0);
  });
});

const request = (log: ReturnType<typeof loggedEvents>, agent = sessionAgent(), tools: ToolsetCatalog = []) => buildModelRequest(agent, log, tools, 1024);

describe('buildModelRequest', () => {
  test("the agent's model and max tokens; no system or tools keys when there are none", () => {
    expect(request(loggedEvents(userMessage('hi')))).toEqual({
      model: 'claude-test',
      max_tokens: 1024,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
    });
  });

  test('consecutive events of one side make one message; status events are no turn', () => {
    const log = loggedEvents(userMessage('a'), { type: 'session.status_running' }, userMessage('b'), {
      type: 'agent.message',
      content: [{ type: 'text', text: 'c' }],
    });
    expect(request(log).messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'c' }] },
    ]);
  });

  test('redacted blocks of a user message are left out; a message left empty adds no turn', () => {
    const log = loggedEvents({ type: 'user.message', content: [{ type: 'redacted' }] }, userMessage('kept'), {
      type: 'user.message',
      content: [{ type: 'redacted' }, { type: 'text', text: 'too' }],
    });
    expect(request(log).messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'kept' }, { type: 'text', text: 'too' }] }]);
  });

  test("a system.message joins the agent's system prompt, after it", () => {
    const log = loggedEvents(userMessage('hi'), { type: 'system.message', content: [{ type: 'text', text: 'one' }, { type: 'text', text: 'two' }] });
    expect(request(log, sessionAgent({ system: 'be brief' })).system).toBe('be brief\n\none\ntwo');
    expect(request(log).system).toBe('one\ntwo');
  });

  test('the tools offered, as the Messages API takes them', () => {
    expect(request(loggedEvents(userMessage('hi')), sessionAgent(), toolset).tools).toEqual([
      { name: 'bash', description: 'runs a command', input_schema: schema },
      { name: 'read', description: 'reads a file', input_schema: schema },
    ]);
  });

  test('tool calls carry their event ids; results answer them, an error flagged, no content an empty list', () => {
    const log = loggedEvents(
      userMessage('go'),
      { type: 'agent.tool_use', id: 'sevt_t1', name: 'bash', input: { command: 'ls' }, evaluated_permission: 'allow' },
      { type: 'agent.custom_tool_use', id: 'sevt_c1', name: 'lookup', input: {} },
      { type: 'user.tool_result', tool_use_id: 'sevt_t1', content: [{ type: 'text', text: 'out' }], is_error: true },
      { type: 'user.custom_tool_result', custom_tool_use_id: 'sevt_c1' },
    );
    expect(request(log).messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'sevt_t1', name: 'bash', input: { command: 'ls' } },
          { type: 'tool_use', id: 'sevt_c1', name: 'lookup', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'sevt_t1', content: [{ type: 'text', text: 'out' }], is_error: true },
          { type: 'tool_result', tool_use_id: 'sevt_c1', content: [], is_error: false },
        ],
      },
    ]);
  });

  test('a denial answers the call as an error with its message; an approval says nothing to the model', () => {
    const call = (id: string) => ({ type: 'agent.tool_use', id, name: 'bash', input: {}, evaluated_permission: 'ask' });
    const log = loggedEvents(
      userMessage('go'),
      call('sevt_a'),
      call('sevt_b'),
      { type: 'user.tool_confirmation', tool_use_id: 'sevt_a', result: 'deny', deny_message: 'not that' },
      { type: 'user.tool_confirmation', tool_use_id: 'sevt_b', result: 'deny' },
      { type: 'user.tool_confirmation', tool_use_id: 'sevt_c', result: 'allow' },
    );
    expect(request(log).messages.at(-1)).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'sevt_a', content: 'The user denied this tool call: not that', is_error: true },
        { type: 'tool_result', tool_use_id: 'sevt_b', content: 'The user denied this tool call', is_error: true },
      ],
    });
  });

  test('the outcome is told with its rubric (text, or the file it names)', () => {
    const define = (rubric: object) => ({ type: 'user.define_outcome', outcome_id: 'out_1', description: 'write a poem', rubric, max_iterations: 3 });
    const [text] = request(loggedEvents(define({ type: 'text', content: 'rhymes' }))).messages;
    expect(text).toEqual({
      role: 'user',
      content: [{ type: 'text', text: 'Outcome to achieve: write a poem\n\nYour work will be graded against this rubric:\nrhymes' }],
    });
    const [file] = request(loggedEvents(define({ type: 'file', file_id: 'file_9' }))).messages;
    expect(JSON.stringify(file)).toContain('the rubric file file_9');
  });

  test("the grader's verdict reaches the agent when it is to revise or close; a final verdict does not", () => {
    const end = (result: string, iteration: number) => ({
      type: 'span.outcome_evaluation_end',
      outcome_id: 'out_1',
      outcome_evaluation_start_id: 'sevt_s',
      iteration,
      result,
      explanation: 'why',
      usage: { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
    });
    const texts = (result: string, iteration: number) =>
      request(loggedEvents(end(result, iteration))).messages.flatMap((m) => (m.content as Array<{ text: string }>).map((b) => b.text));
    expect(texts('needs_revision', 0)).toEqual(['Evaluation 1: the outcome needs revision. why\n\nRevise your work to meet every criterion.']);
    expect(texts('max_iterations_reached', 2)[0]).toStartWith('Evaluation 3: the outcome is still not met and no further evaluation will run. why');
    expect(texts('satisfied', 0)).toEqual([]);
    expect(texts('failed', 0)).toEqual([]);
  });

  test('the thinking and non-text parts of an agent message are not sent back', () => {
    const log = loggedEvents(userMessage('hi'), { type: 'agent.thinking' }, idleFor('end_turn'), {
      type: 'agent.message',
      content: [{ type: 'text', text: 'hello' }],
    });
    expect(request(log).messages.at(-1)).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'hello' }] });
  });
});
