import type { MessageCreateParamsNonStreaming, MessageParam, ContentBlockParam, Tool } from '@anthropic-ai/sdk/resources/messages';
import type { SessionAgent } from '@shared/schema/session';
import { answeredCall, type LoggedEvent } from './session-log';

/** A tool the model may call, with where its calls go. */
export interface ToolDefinition {
  name: string;
  description: string;
  input_schema: Tool['input_schema'];
}

/** The agent toolset's tools as the environment worker runs them (names, descriptions, input schemas). */
export type ToolsetCatalog = readonly ToolDefinition[];

/**
 * The tools of a session's agent as the model sees them: the agent toolset's enabled tools (their
 * definitions are the SDK worker's own, so the model asks for exactly what a worker runs) and
 * the custom tools. MCP servers' tools are listed by the runtime and added after these
 * (domain/mcp-tools.ts `offeredMcpTools`).
 */
export function modelTools(agent: SessionAgent, toolset: ToolsetCatalog): { tools: ToolDefinition[]; permissions: Map<string, 'allow' | 'ask'> } {
  const tools: ToolDefinition[] = [];
  const permissions = new Map<string, 'allow' | 'ask'>();
  for (const tool of agent.tools) {
    if (tool.type === 'agent_toolset_20260401') {
      for (const definition of toolset) {
        const config = tool.configs.find((c) => c.name === definition.name);
        const enabled = config?.enabled ?? tool.default_config.enabled;
        if (!enabled) continue;
        const policy = config?.permission_policy ?? tool.default_config.permission_policy;
        permissions.set(definition.name, policy.type === 'always_ask' ? 'ask' : 'allow');
        tools.push(definition);
      }
    } else if (tool.type === 'custom') {
      tools.push({ name: tool.name, description: tool.description, input_schema: tool.input_schema as Tool['input_schema'] });
    }
  }
  return { tools, permissions };
}

type Block = ContentBlockParam;

/** A user.message's blocks as Messages API content: text, images and documents pass as they are; redacted blocks are left out. */
function userContent(content: ReadonlyArray<{ type: string }>): Block[] {
  return content.filter((block) => block.type !== 'redacted') as unknown as Block[];
}

/**
 * The Messages API request of a session's next turn: the agent's model, system prompt and tools,
 * and the conversation rebuilt from the log in order. Consecutive events of one side make one
 * message; tool calls are the log's events (their event ids are the tool_use ids), answered by
 * the tool results that name them. A `system.message` (which follows a user.message) joins the
 * system prompt, after the agent's own, since the Messages API has no system turn mid-conversation.
 * `mounted` are the sections about what the session mounts (system-prompt.ts), after the agent's prompt.
 */
export function buildModelRequest(
  agent: SessionAgent,
  log: readonly LoggedEvent[],
  tools: readonly ToolDefinition[],
  maxTokens: number,
  mounted: readonly string[] = [],
): MessageCreateParamsNonStreaming {
  const messages: MessageParam[] = [];
  const system: string[] = [...(agent.system ? [agent.system] : []), ...mounted];
  const push = (role: 'user' | 'assistant', blocks: Block[]) => {
    if (blocks.length === 0) return;
    const last = messages.at(-1);
    if (last && last.role === role) (last.content as Block[]).push(...blocks);
    else messages.push({ role, content: [...blocks] });
  };
  // A call is answered once: the first answer counts (a worker that finished a call an interrupt
  // had already answered as stopped sends a second, which the Messages API would refuse).
  const answered = new Set<string>();
  for (const { event } of log) {
    const call = answeredCall(event);
    if (call !== undefined && event.type !== 'user.tool_confirmation') {
      if (answered.has(call)) continue;
      answered.add(call);
    }
    switch (event.type) {
      case 'user.message':
        push('user', userContent(event.content));
        break;
      case 'system.message':
        system.push(event.content.map((block) => block.text).join('\n'));
        break;
      case 'user.define_outcome':
        push('user', [{ type: 'text', text: outcomeBrief(event) }]);
        break;
      case 'span.outcome_evaluation_end':
        // The grader's verdict is what the agent revises from (or, at the last cycle, closes on).
        if (event.result === 'needs_revision' || event.result === 'max_iterations_reached') push('user', [{ type: 'text', text: verdictFeedback(event) }]);
        break;
      case 'agent.message':
        push('assistant', event.content.flatMap((block) => (block.type === 'text' ? [{ type: 'text' as const, text: block.text }] : [])));
        break;
      case 'agent.tool_use':
      case 'agent.custom_tool_use':
      case 'agent.mcp_tool_use':
        push('assistant', [{ type: 'tool_use', id: event.id, name: event.name, input: event.input }]);
        break;
      case 'agent.mcp_tool_result':
        push('user', [{ type: 'tool_result', tool_use_id: event.mcp_tool_use_id, content: (event.content ?? []) as never, is_error: event.is_error ?? false }]);
        break;
      case 'user.tool_result':
        push('user', [{ type: 'tool_result', tool_use_id: event.tool_use_id, content: (event.content ?? []) as never, is_error: event.is_error ?? false }]);
        break;
      case 'user.custom_tool_result':
        push('user', [
          { type: 'tool_result', tool_use_id: event.custom_tool_use_id, content: (event.content ?? []) as never, is_error: event.is_error ?? false },
        ]);
        break;
      case 'user.tool_confirmation':
        if (event.result === 'deny') {
          const reason = event.deny_message ? `: ${event.deny_message}` : '';
          push('user', [{ type: 'tool_result', tool_use_id: event.tool_use_id, content: `The user denied this tool call${reason}`, is_error: true }]);
        }
        break;
      default:
        break;
    }
  }
  return {
    model: agent.model.id,
    max_tokens: maxTokens,
    messages,
    ...(system.length > 0 ? { system: system.join('\n\n') } : {}),
    ...(tools.length > 0 ? { tools: tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.input_schema })) } : {}),
  };
}

type DefineOutcome = Extract<LoggedEvent['event'], { type: 'user.define_outcome' }>;
type EvaluationEnd = Extract<LoggedEvent['event'], { type: 'span.outcome_evaluation_end' }>;

/** The outcome as the agent is told it: the task, and the rubric it will be graded against. */
function outcomeBrief(event: DefineOutcome): string {
  const rubric = event.rubric.type === 'text' ? event.rubric.content : `the rubric file ${event.rubric.file_id}`;
  return `Outcome to achieve: ${event.description}\n\nYour work will be graded against this rubric:\n${rubric}`;
}

function verdictFeedback(event: EvaluationEnd): string {
  if (event.result === 'max_iterations_reached') {
    return `Evaluation ${event.iteration + 1}: the outcome is still not met and no further evaluation will run. ${event.explanation}\n\nSummarise what was done and what remains.`;
  }
  return `Evaluation ${event.iteration + 1}: the outcome needs revision. ${event.explanation}\n\nRevise your work to meet every criterion.`;
}
