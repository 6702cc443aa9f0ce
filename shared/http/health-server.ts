import type { Server } from 'bun';
import type { Logger } from '../log/logger';
import type { Health, Readiness } from '../schema/health';

export interface HealthProbes {
  /** Resolves when the bus and the database answer; throws naming what does not. */
  ready(): Promise<void>;
  /** Prometheus text exposition of the service's registry (shared/telemetry/telemetry.ts). */
  metrics?(): Promise<string>;
}

/**
 * How long a readiness check may take. A dependency that stops answering without closing the
 * connection (a hung host, a black-holed network) would otherwise hold every probe open until
 * the probe's own timeout, with no answer; this is below the chart's probe timeout (3 s).
 */
export const READINESS_TIMEOUT_MS = 2000;

/**
 * Answers a readiness probe. The body says ready or not and nothing more: the reason names
 * internal addresses and driver errors, so it goes to the log, never to whoever can reach the
 * port (the gateway serves this on its public port).
 */
export async function readiness(
  ready: () => Promise<void>,
  logger: Logger,
  timeoutMs = READINESS_TIMEOUT_MS,
): Promise<Response> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`readiness check did not finish within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([ready(), timedOut]);
    return Response.json({ status: 'ready' } satisfies Readiness);
  } catch (err) {
    logger.warn('not ready', { error: err });
    return Response.json({ status: 'not_ready' } satisfies Readiness, { status: 503 });
  } finally {
    clearTimeout(timer);
  }
}

/** /healthz (alive), /readyz (dependencies reachable), /metrics: for Kubernetes probes. */
export function startHealthServer(
  address: { port: number; hostname: string },
  probes: HealthProbes,
  logger: Logger,
): Server<unknown> {
  return Bun.serve({
    port: address.port,
    hostname: address.hostname,
    fetch: async (request) => {
      const { pathname } = new URL(request.url);
      if (pathname === '/healthz') return Response.json({ status: 'ok' } satisfies Health);
      if (pathname === '/readyz') return readiness(probes.ready, logger);
      if (pathname === '/metrics' && probes.metrics) {
        return new Response(await probes.metrics(), { headers: { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' } });
      }
      return Response.json({ status: 'not_found' }, { status: 404 });
    },
  });
}
