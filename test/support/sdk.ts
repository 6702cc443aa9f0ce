/**
 * The official SDK in both versions users run: 1.14.0 (what `npm install` gives today, and what the
 * product itself uses) and 0.137.0 (the interface's, installed under the alias `anthropic-sdk-v0`).
 * SDK-facing tests run once per version, unchanged clients both: base URL and key only.
 */
import Anthropic from '@anthropic-ai/sdk';
import AnthropicV0 from 'anthropic-sdk-v0';
import { describe } from 'bun:test';

export interface SdkUnderTest {
  /** The package version, as a test title shows it. */
  readonly version: '1.14.0' | '0.137.0';
  /** What the version sends as `anthropic-version`. */
  readonly apiVersion: '2026-10-21' | '2023-06-01';
  /** Whether it sends the `beta=true` query (1.x stopped at 1.3.0). */
  readonly sendsBetaQuery: boolean;
  /**
   * The client class. Typed as the current SDK's: the surfaces the product serves are the same in
   * both (what differs is the wire: the version header, the beta query, the key as a bearer).
   */
  readonly Anthropic: typeof Anthropic;
}

export const SDKS: readonly SdkUnderTest[] = [
  { version: '1.14.0', apiVersion: '2026-10-21', sendsBetaQuery: false, Anthropic },
  { version: '0.137.0', apiVersion: '2023-06-01', sendsBetaQuery: true, Anthropic: AnthropicV0 as unknown as typeof Anthropic },
];

/** A describe block per SDK version, titled with it. */
export function describeEachSdk(title: string, body: (sdk: SdkUnderTest) => void): void {
  for (const sdk of SDKS) describe(`${title} [SDK ${sdk.version}]`, () => body(sdk));
}

/** What the tests give the worker: the environment, its key, where tools run, how long it waits idle. */
interface WorkerOptions {
  environmentId: string;
  environmentKey: string;
  workdir: string;
  maxIdleMs: number;
}

/** Runs the SDK's own environment worker (of the client's version) while `body` runs, and stops it after. */
export async function withEnvironmentWorker<T>(client: Anthropic, options: WorkerOptions, body: () => Promise<T>): Promise<T> {
  const stop = new AbortController();
  const running = client.beta.environments.work.worker(options).run(stop.signal).catch(() => undefined);
  try {
    return await body();
  } finally {
    stop.abort();
    await running;
  }
}
