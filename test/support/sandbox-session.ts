/**
 * One bash command run by a cloud session's agent, end to end: the fake model asks for it, a
 * sandbox worker of the stack runs it in the session's sandbox through the SDK's own worker, and
 * the model's answer ends the turn. For the sandbox suites, which read what the command printed.
 */
import { eventually } from './eventually';
import { expectOk } from './expect';
import { createAgent, createDeployment, createEnvironment, userMessage } from './fixtures';
import type { RuntimeWorldHandle } from './runtime-world';

export interface SandboxRun {
  sessionId: string;
  environmentId: string;
  /** The tool result's text (empty when the turn ended without one). */
  output: string;
  isError: boolean;
  events: Array<{ type: string; [key: string]: unknown }>;
}

let calls = 0;

/** `session`: more of the session's body (its resources); `fired`: the session is a deployment's with that body, fired by hand. `toolRuns: false`: the tool is expected never to run (the session fails first), so the model is not scripted past the call. */
export async function runInSandbox(world: RuntimeWorldHandle, command: string, environment: Record<string, unknown> = {}, options: { toolRuns?: boolean; session?: Record<string, unknown>; fired?: boolean } = {}): Promise<SandboxRun> {
  const id = `toolu_sandbox_${++calls}`;
  world.model.reply({ content: [{ type: 'tool_use', id, name: 'bash', input: { command } }], stop_reason: 'tool_use', usage: { input_tokens: 10, output_tokens: 5 } });
  if (options.toolRuns !== false) world.model.reply({ content: [{ type: 'text', text: 'Done.' }], stop_reason: 'end_turn', usage: { input_tokens: 20, output_tokens: 5 } });
  const agent = await createAgent(world.api, { tools: [{ type: 'agent_toolset_20260401' }] });
  const env = await createEnvironment(world.api, environment);
  const body = { agent: agent.id, environment_id: env.id, initial_events: [userMessage('Run it')], ...options.session };
  const session = options.fired ? { id: await fire(world, body) } : expectOk(await world.api('POST', '/v1/sessions', { body }));
  const events = await eventually(
    'the session to end its turn',
    async () => {
      const all = (await world.sdk().beta.sessions.events.list(session.id, { limit: 1000 })).data as unknown as SandboxRun['events'];
      const last = all.at(-1) as { type: string; stop_reason?: { type: string } } | undefined;
      return last?.type === 'session.status_idle' && last.stop_reason?.type !== undefined ? all : undefined;
    },
    { timeoutMs: 120_000, intervalMs: 100 },
  );
  // The log names the call by its event id, not the model's: the session's one call is the one answered.
  const result = events.find((e) => e.type === 'user.tool_result') as
    | { content?: Array<{ type: string; text?: string }>; is_error?: boolean }
    | undefined;
  return {
    sessionId: session.id,
    environmentId: env.id,
    output: (result?.content ?? []).map((c) => c.text ?? '').join(''),
    isError: result?.is_error === true,
    events,
  };
}

/** A deployment of `body`, run by hand: the fired session's id. */
async function fire(world: RuntimeWorldHandle, body: Record<string, unknown>): Promise<string> {
  const deployment = await createDeployment(world.api, { name: 'sandbox deployment', ...body });
  const run = expectOk(await world.api('POST', `/v1/deployments/${deployment.id}/run`)) as { session_id: string | null; error?: unknown };
  if (!run.session_id) throw new Error(`the run made no session: ${JSON.stringify(run)}`);
  return run.session_id;
}
