/**
 * Long sessions, through the real parts and the unchanged SDK: a conversation near its model's
 * context window (the fake reports the usage that says so) is summarized by the model before the
 * next turn, shown as one `agent.thread_context_compacted` of the SDK's shape; the turns after it
 * send the summary and what followed it; a request the model API refuses as too long compacts
 * and the turn goes on; compacting that never helps gives up with the SDK's limit error.
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import type { MessageCreateParamsNonStreaming } from '@anthropic-ai/sdk/resources/messages';
import { describeEachSdk, SDKS, type SdkUnderTest } from '../support/sdk';
import { sessionLog, useRuntimeWorld } from '../support/runtime-world';
import { eventually } from '../support/eventually';
import { createAgent, createEnvironment } from '../support/fixtures';
import { runtimeSettled } from '../support/runtime-settled';
import { sdkShapeProblems } from '../support/sdk-shape';
import type { ScriptedReply } from '../support/fake-model-api';

/** The SDK whose client the current block runs (each block sets it). */
let current: SdkUnderTest = SDKS[0]!;

const world = useRuntimeWorld();
const sdk = () => world.sdk(current.Anthropic);
const logOf = (sessionId: string) => sessionLog(sdk(), sessionId);

const answer = (text: string, input_tokens: number, more: Record<string, number> = {}): ScriptedReply => ({
  content: [{ type: 'text', text }],
  stop_reason: 'end_turn',
  usage: { input_tokens, output_tokens: 10, ...more },
});
const TOO_LONG: ScriptedReply = { status: 400, type: 'invalid_request_error', message: 'prompt is too long: 210034 tokens > 200000 maximum' };

/** A session of the fixture agent (claude-opus-4-5: a 200,000-token window in the catalog), no tools. */
async function newSession() {
  const agent = await createAgent(world.api);
  const environment = await createEnvironment(world.api);
  return sdk().beta.sessions.create({ agent: agent.id, environment_id: environment.id });
}

/** Sends a message and waits until the session rests after it, its work all done. */
async function say(sessionId: string, text: string): Promise<Array<Record<string, any>>> {
  const rests = (await logOf(sessionId)).filter((e) => e.type === 'session.status_idle').length;
  await sdk().beta.sessions.events.send(sessionId, { events: [{ type: 'user.message', content: [{ type: 'text', text }] }] });
  await eventually(
    'the session to rest again',
    async () => ((await logOf(sessionId)).filter((e) => e.type === 'session.status_idle').length > rests ? true : undefined),
    { timeoutMs: 30_000, intervalMs: 50 },
  );
  await runtimeSettled(world.stack);
  return logOf(sessionId);
}

const text = (request: MessageCreateParamsNonStreaming) => JSON.stringify(request.messages);

describeEachSdk('long sessions are compacted, never failed for being long', (under) => {
  beforeAll(() => {
    current = under;
  });

  test('near the window: the model summarizes first, the next turns send the summary and what followed it', async () => {
    const before = world.model.requests.length;
    const session = await newSession();
    // 190,000 of the window's 200,000 tokens read by the first turn: past the 0.8 threshold.
    world.model.reply(answer('First answer: the report is at /tmp/report.md.', 190_000));
    await say(session.id, 'Write the report to /tmp/report.md');
    world.model.reply(
      answer('SUMMARY-1: the user asked for /tmp/report.md, written; now a summary section.', 2_000, { cache_read_input_tokens: 190_000 }),
      answer('Second answer: the section is added.', 3_000),
      answer('Third answer.', 3_500),
    );
    const log = await say(session.id, 'Now add a summary section');

    expect(log.map((e) => e.type)).toEqual([
      'user.message', 'session.status_running', 'span.model_request_start', 'agent.message', 'span.model_request_end', 'session.status_idle',
      'user.message', 'session.status_running', 'span.model_request_start', 'agent.thread_context_compacted', 'span.model_request_end',
      'span.model_request_start', 'agent.message', 'span.model_request_end', 'session.status_idle',
    ]);
    // The SDK's event, and nothing more: the summary is never shown.
    const compacted = log.filter((e) => e.type === 'agent.thread_context_compacted');
    expect(compacted).toHaveLength(1);
    expect(Object.keys(compacted[0]!).sort()).toEqual(['id', 'processed_at', 'type']);
    expect(sdkShapeProblems(compacted[0], 'BetaManagedAgentsSessionEvent')).toEqual([]);
    expect(JSON.stringify(log)).not.toContain('SUMMARY-1');

    // The summary request: the conversation as the turn would have sent it, the instruction last.
    const [, summarize, afterCompaction] = world.model.requests.slice(before);
    expect(text(summarize!)).toContain('Write the report to /tmp/report.md');
    expect(text(summarize!)).toContain('First answer');
    expect(text(summarize!)).toContain('Now add a summary section');
    expect(text(summarize!)).toContain('latest one quoted verbatim');
    // The turn after it: the summary first, and nothing from before the compaction.
    expect(afterCompaction!.messages).toHaveLength(1);
    expect(text(afterCompaction!)).toContain('SUMMARY-1');
    expect(text(afterCompaction!)).not.toContain('First answer');
    // Still cached: the conversation's last block is the request's breakpoint.
    expect((afterCompaction!.messages.at(-1)!.content as Array<{ cache_control?: unknown }>).at(-1)!.cache_control).toEqual({ type: 'ephemeral' });

    // The next turn sends the summary and the events after the compaction only.
    await say(session.id, 'Thanks, one more thing');
    const third = world.model.requests.at(-1)!;
    expect(third.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(text(third)).toContain('SUMMARY-1');
    expect(text(third)).toContain('Second answer');
    expect(text(third)).toContain('Thanks, one more thing');
    expect(text(third)).not.toContain('Write the report');
    expect(world.model.requests.length - before).toBe(4);

    // The summary request's tokens count in the session's usage (and so in its budget).
    const usage = (await sdk().beta.sessions.retrieve(session.id)).usage as unknown as Record<string, number>;
    expect(usage.input_tokens).toBe(190_000 + 2_000 + 3_000 + 3_500);
    expect(usage.cache_read_input_tokens).toBe(190_000);
    expect(usage.output_tokens).toBe(40);
  }, 90_000);

  test('a request the model API refuses as too long: compacted from a transcript, and the turn succeeds', async () => {
    const before = world.model.requests.length;
    const session = await newSession();
    world.model.reply(TOO_LONG, answer('SUMMARY-2: the user pasted a long log to analyse.', 5_000), answer('Here is the analysis.', 4_000));
    const log = await say(session.id, `Analyse this log: ${'line of a long log\n'.repeat(200)}`);

    expect(log.map((e) => e.type)).toEqual([
      'user.message', 'session.status_running', 'span.model_request_start', 'agent.thread_context_compacted', 'span.model_request_end',
      'span.model_request_start', 'agent.message', 'span.model_request_end', 'session.status_idle',
    ]);
    expect(log.at(-1)!.stop_reason).toEqual({ type: 'end_turn' });
    const [, summarize, retried] = world.model.requests.slice(before);
    // The conversation did not fit: its transcript is summarized instead, without tools.
    expect(text(summarize!)).toContain('<transcript>');
    expect(text(summarize!)).toContain('Analyse this log');
    expect(text(retried!)).toContain('SUMMARY-2');
    expect(text(retried!)).not.toContain('line of a long log');
    expect((await sdk().beta.sessions.retrieve(session.id)).usage.input_tokens).toBe(9_000);
  }, 90_000);

  test('compacting that never makes the request fit gives up after two in a row: the SDK limit error, idle', async () => {
    const before = world.model.requests.length;
    const session = await newSession();
    world.model.reply(TOO_LONG, answer('SUMMARY-A', 100), TOO_LONG, answer('SUMMARY-B', 100), TOO_LONG);
    const log = await say(session.id, 'Hello');

    expect(log.filter((e) => e.type === 'agent.thread_context_compacted')).toHaveLength(2);
    const error = log.find((e) => e.type === 'session.error')!;
    expect(error.error).toMatchObject({ type: 'compaction_limit_reached_error', retry_status: { type: 'exhausted' } });
    expect(log.at(-1)).toMatchObject({ type: 'session.status_idle', stop_reason: { type: 'retries_exhausted' } });
    expect(world.model.requests.length - before).toBe(5);
    expect((await sdk().beta.sessions.retrieve(session.id)).status).toBe('idle');

    // The next message starts a new turn, which may compact again.
    world.model.reply(answer('Back on track.', 100));
    const after = await say(session.id, 'Try again, briefly');
    expect(after.at(-1)).toMatchObject({ type: 'session.status_idle', stop_reason: { type: 'end_turn' } });
    expect(text(world.model.requests.at(-1)!)).toContain('SUMMARY-B');
  }, 90_000);

  test('an interrupt while the summary is being written stops it: the span ends with what it cost, nothing compacted, the model not asked again', async () => {
    const session = await newSession();
    world.model.reply(answer('First answer.', 190_000));
    await say(session.id, 'Start');
    const summary = world.model.replyPausedMidway({ content: [{ type: 'text', text: 'SUMMARY-STOPPED: half a summ' }], stop_reason: 'end_turn', usage: { input_tokens: 1_500, output_tokens: 10 } });
    const requests = world.model.requests.length;
    const rests = (await logOf(session.id)).filter((e) => e.type === 'session.status_idle').length;
    await sdk().beta.sessions.events.send(session.id, { events: [{ type: 'user.message', content: [{ type: 'text', text: 'Go on' }] }] });
    await summary.midway;
    await sdk().beta.sessions.events.send(session.id, { events: [{ type: 'user.interrupt' }] });
    await eventually(
      'the session to rest after the interrupt',
      async () => ((await logOf(session.id)).filter((e) => e.type === 'session.status_idle').length > rests ? true : undefined),
      { timeoutMs: 30_000, intervalMs: 50 },
    );
    await runtimeSettled(world.stack);
    summary.finish();
    const log = await logOf(session.id);
    expect(log.slice(6).map((e) => e.type)).toEqual([
      'user.message', 'session.status_running', 'span.model_request_start', 'user.interrupt', 'span.model_request_end', 'session.status_idle',
    ]);
    expect(log.find((e) => e.type === 'span.model_request_end' && e.model_request_start_id === log[8]!.id)).toMatchObject({
      is_error: true,
      model_usage: { input_tokens: 1_500 },
    });
    expect(log.at(-1)).toMatchObject({ stop_reason: { type: 'end_turn' } });
    // The summary request was the only one: no turn after it, nothing kept of it.
    expect(world.model.requests.length).toBe(requests + 1);
    expect(JSON.stringify(log)).not.toContain('SUMMARY-STOPPED');
    expect((await sdk().beta.sessions.retrieve(session.id)).usage.input_tokens).toBe(190_000 + 1_500);
  }, 90_000);
});

describe('a deleted session', () => {
  test('takes the summaries of its conversation with it', async () => {
    current = SDKS[0]!;
    const session = await newSession();
    world.model.reply(TOO_LONG, answer('SUMMARY-DEL', 100), answer('ok', 100));
    await say(session.id, 'Hello');
    const runtimeDb = world.stack.service('runtime').database.pool;
    const count = async () => {
      const [rows] = (await runtimeDb.query('SELECT COUNT(*) AS n FROM context_summaries WHERE session_id = ?', [session.id])) as any;
      return Number(rows[0].n);
    };
    expect(await count()).toBe(1);
    await sdk().beta.sessions.delete(session.id);
    await eventually('the summaries to be gone', async () => ((await count()) === 0 ? true : undefined), { timeoutMs: 20_000, intervalMs: 50 });
  }, 60_000);
});
