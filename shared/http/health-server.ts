import type { Server } from 'bun';

export interface HealthProbes {
  /** Resolves when the bus and the database answer; throws naming what does not. */
  ready(): Promise<void>;
  /** Prometheus text exposition, for services that have metrics. */
  metrics?(): string;
}

/** /healthz (alive), /readyz (dependencies reachable), /metrics: for Kubernetes probes. */
export function startHealthServer(port: number, probes: HealthProbes): Server<unknown> {
  return Bun.serve({
    port,
    hostname: '0.0.0.0',
    fetch: async (request) => {
      const { pathname } = new URL(request.url);
      if (pathname === '/healthz') return Response.json({ status: 'ok' });
      if (pathname === '/readyz') {
        try {
          await probes.ready();
          return Response.json({ status: 'ready' });
        } catch (err) {
          return Response.json({ status: 'not_ready', reason: (err as Error).message }, { status: 503 });
        }
      }
      if (pathname === '/metrics' && probes.metrics) {
        return new Response(probes.metrics(), { headers: { 'content-type': 'text/plain; version=0.0.4' } });
      }
      return Response.json({ status: 'not_found' }, { status: 404 });
    },
  });
}
