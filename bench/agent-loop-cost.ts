/**
 * What a long session costs with prompt caching, against bench/caching-messages-api.ts (a fake
 * that bills caching as the Messages API documents it), through the real stack: an agent with a
 * ~6,000-token system prompt and the agent toolset, on a self-hosted environment, sent `turns`
 * user messages one after another (each answered with `answer` tokens of text). Prints the
 * tokens billed and the cost against the same requests uncached, at the model's list prices
 * (input, output; cache reads 0.1x and writes 1.25x of input). Not part of `bun test`.
 *
 *   bun bench/agent-loop-cost.ts                    # 30 turns, 200-token answers, claude-sonnet-4-5
 *   bun bench/agent-loop-cost.ts --turns 10 --answer 500
 */
import { parseArgs } from 'node:util';
import { apiClient } from '../test/support/api';
import { eventually } from '../test/support/eventually';
import { expectOk } from '../test/support/expect';
import { createAgent, createEnvironment } from '../test/support/fixtures';
import { Stack } from '../test/support/stack';
import { startCachingMessagesApi } from './caching-messages-api';

const { values: flags } = parseArgs({ args: process.argv.slice(2), options: { turns: { type: 'string', default: '30' }, answer: { type: 'string', default: '200' }, model: { type: 'string', default: 'claude-sonnet-4-5' } } });
const turns = Number(flags.turns);
const model = startCachingMessagesApi({ answerTokens: Number(flags.answer) });
const stack = await Stack.start({
  services: ['catalog', 'deployments', 'vaults', 'runtime'],
  env: { LOG_LEVEL: 'error' },
  serviceEnv: { runtime: { MODEL_API_BASE_URL: model.url, MODEL_API_KEY: 'sk-bench' } },
});
try {
  const api = apiClient(stack.url, (await stack.createKey()).secret);
  const system = 'You are a careful assistant for a warehouse team. '.repeat(480);
  const agent = await createAgent(api, { model: flags.model, system, tools: [{ type: 'agent_toolset_20260401' }] });
  const environment = await createEnvironment(api, { config: { type: 'self_hosted' } });
  const session = expectOk(await api('POST', '/v1/sessions', { body: { agent: agent.id, environment_id: environment.id } }));
  for (let turn = 1; turn <= turns; turn++) {
    expectOk(await api('POST', `/v1/sessions/${session.id}/events`, { body: { events: [{ type: 'user.message', content: [{ type: 'text', text: `Question ${turn}: where is order ${turn}?` }] }] } }));
    await eventually(
      `turn ${turn}`,
      async () => (model.billing.requests >= turn && (expectOk(await api('GET', `/v1/sessions/${session.id}`)) as { status: string }).status === 'idle' ? true : undefined),
      { timeoutMs: 30_000, intervalMs: 20 },
    );
  }
  const catalogModel = expectOk(await api('GET', `/v1/models/${flags.model}`)) as { list_price?: { input_per_million_tokens: string; output_per_million_tokens: string } | null };
  const input = Number(catalogModel.list_price?.input_per_million_tokens ?? 300) / 1e6;
  const output = Number(catalogModel.list_price?.output_per_million_tokens ?? 1500) / 1e6;
  const b = model.billing;
  const cached = b.input * input + b.cacheRead * input * 0.1 + b.cacheWrite * input * 1.25 + b.output * output;
  const uncached = b.uncachedInput * input + b.output * output;
  const shown = expectOk(await api('GET', `/v1/sessions/${session.id}`)) as { usage: { list_cost: { amount: string } } };
  console.log(`${turns} turns, ${b.requests} model requests (${flags.model}; prices per token: input ${input * 1e6}, output ${output * 1e6} cents a million)`);
  console.log(`  input billed: ${b.input} uncached, ${b.cacheRead} cache reads, ${b.cacheWrite} cache writes; output ${b.output}; the same requests uncached: ${b.uncachedInput} input`);
  console.log(`  cost: ${cached.toFixed(1)} cents with caching vs ${uncached.toFixed(1)} uncached: ratio ${(cached / uncached).toFixed(3)}; the session's own list_cost: ${shown.usage.list_cost.amount} cents`);
} finally {
  await stack.stop();
  model.stop();
}

