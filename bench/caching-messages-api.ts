/**
 * A Messages API fake that bills prompt caching the way the API documents it, for
 * bench/agent-loop-cost.ts: a request's prefix (tools, then system, then messages, block by
 * block) up to a `cache_control` breakpoint is written to a cache that lives 5 minutes from its
 * last use; a later request reads the longest cached prefix found at its breakpoints or up to 20
 * block boundaries before one. Tokens are counted as a character count / 4. Answers are a fixed
 * text of `answerTokens` tokens. It also counts what each request would have cost uncached.
 */
import { createHash } from 'node:crypto';

export interface Billing {
  requests: number;
  input: number;
  cacheRead: number;
  cacheWrite: number;
  output: number;
  /** The same requests' input, had nothing been cached. */
  uncachedInput: number;
}

const LIFETIME_MS = 5 * 60_000;
const LOOKBACK = 20;
const tokens = (text: string) => Math.ceil(text.length / 4);

export function startCachingMessagesApi(options: { answerTokens: number }) {
  const cache = new Map<string, number>();
  const billing: Billing = { requests: 0, input: 0, cacheRead: 0, cacheWrite: 0, output: 0, uncachedInput: 0 };
  const answer = 'word '.repeat(Math.max(1, Math.round((options.answerTokens * 4) / 5)));
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(request) {
      const body = (await request.json()) as { model: string; system?: unknown; tools?: unknown[]; messages: Array<{ content: unknown }> };
      const blocks: Array<{ text: string; breakpoint: boolean }> = [];
      const add = (block: unknown) => {
        const { cache_control, ...rest } = (typeof block === 'string' ? { text: block } : block) as { cache_control?: unknown };
        blocks.push({ text: JSON.stringify(rest), breakpoint: cache_control !== undefined });
      };
      for (const tool of body.tools ?? []) add(tool);
      if (typeof body.system === 'string') add(body.system);
      else for (const block of (body.system as unknown[] | undefined) ?? []) add(block);
      for (const message of body.messages) for (const block of typeof message.content === 'string' ? [message.content] : (message.content as unknown[])) add(block);
      const now = Date.now();
      const hashes: string[] = [];
      const cumulative: number[] = [];
      let hash = '';
      let sum = 0;
      for (const block of blocks) {
        hash = createHash('sha256').update(hash).update(block.text).digest('hex');
        sum += tokens(block.text);
        hashes.push(hash);
        cumulative.push(sum);
      }
      const live = (h: string) => (cache.get(h) ?? 0) > now;
      const breakpoints = blocks.flatMap((b, i) => (b.breakpoint ? [i] : []));
      let read = -1;
      for (const b of breakpoints) for (let j = b; j >= Math.max(0, b - LOOKBACK); j--) if (live(hashes[j]!)) read = Math.max(read, j);
      const last = breakpoints.at(-1) ?? -1;
      const readTokens = read >= 0 ? cumulative[read]! : 0;
      const prefixTokens = last >= 0 ? cumulative[last]! : 0;
      const usage = {
        input_tokens: sum - Math.max(prefixTokens, readTokens),
        cache_read_input_tokens: readTokens,
        cache_creation_input_tokens: Math.max(0, prefixTokens - readTokens),
        output_tokens: options.answerTokens,
      };
      for (const b of breakpoints) cache.set(hashes[b]!, now + LIFETIME_MS);
      if (read >= 0) cache.set(hashes[read]!, now + LIFETIME_MS);
      billing.requests += 1;
      billing.input += usage.input_tokens;
      billing.cacheRead += usage.cache_read_input_tokens;
      billing.cacheWrite += usage.cache_creation_input_tokens;
      billing.output += usage.output_tokens;
      billing.uncachedInput += sum;
      return Response.json({
        id: `msg_${billing.requests}`,
        type: 'message',
        role: 'assistant',
        model: body.model,
        content: [{ type: 'text', text: answer }],
        stop_reason: 'end_turn',
        stop_sequence: null,
        usage,
      });
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, billing, stop: () => server.stop(true) };
}
