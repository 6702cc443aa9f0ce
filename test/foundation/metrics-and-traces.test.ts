/**
 * Metrics and traces through the real parts: every process's /metrics on its health port (the
 * gateway's too, never its public port), and one API request as one trace across the services,
 * exported over OTLP/HTTP JSON to a collector stand-in in this process.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Server } from 'bun';
import { apiClient, type ApiClient } from '../support/api';
import { eventually } from '../support/eventually';
import { createVault, deploymentWorld } from '../support/fixtures';
import { ALL_BACKEND_SERVICES, Stack, type StackSandboxWorker } from '../support/stack';

interface ExportedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  links: Array<{ traceId: string; spanId: string }>;
}

/** What an OTLP/HTTP JSON exporter sends to /v1/traces, as far as these tests read it. */
interface ExportRequest {
  resourceSpans?: Array<{
    resource?: { attributes?: KeyValue[] };
    scopeSpans?: Array<{
      spans?: Array<{
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        kind: number;
        attributes?: KeyValue[];
        links?: Array<{ traceId: string; spanId: string }>;
      }>;
    }>;
  }>;
}
type KeyValue = { key: string; value: Record<string, unknown> };
const valueOf = (v: Record<string, unknown>) => v.stringValue ?? v.intValue ?? v.boolValue ?? v.doubleValue;
const attributes = (list: KeyValue[] = []) => Object.fromEntries(list.map((kv) => [kv.key, valueOf(kv.value)]));

/** A collector stand-in: keeps every span it is sent, with its resource's service.name. */
function startCollector() {
  const spans: ExportedSpan[] = [];
  const contentTypes = new Set<string>();
  const server: Server<unknown> = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch: async (request) => {
      if (new URL(request.url).pathname !== '/v1/traces') return new Response('not found', { status: 404 });
      contentTypes.add(request.headers.get('content-type') ?? '');
      const body = (await request.json()) as ExportRequest;
      for (const resourceSpans of body.resourceSpans ?? []) {
        const service = String(attributes(resourceSpans.resource?.attributes)['service.name']);
        for (const scope of resourceSpans.scopeSpans ?? []) {
          for (const span of scope.spans ?? []) {
            spans.push({
              service,
              traceId: span.traceId,
              spanId: span.spanId,
              parentSpanId: span.parentSpanId ?? '',
              name: span.name,
              kind: span.kind,
              attributes: attributes(span.attributes),
              links: (span.links ?? []).map((l) => ({ traceId: l.traceId, spanId: l.spanId })),
            });
          }
        }
      }
      return Response.json({});
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, spans, contentTypes, stop: () => server.stop(true) };
}

let collector: ReturnType<typeof startCollector>;
let stack: Stack;
let worker: StackSandboxWorker;
let api: ApiClient;

beforeAll(async () => {
  collector = startCollector();
  stack = await Stack.start({
    services: ALL_BACKEND_SERVICES,
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' },
  });
  worker = await stack.startSandboxWorker();
  api = apiClient(stack.url, (await stack.createKey()).secret);
});

afterAll(async () => {
  await stack?.stop();
  collector?.stop();
});

/** Every process of the stack, by name, with its health port. */
function processes(): Array<{ name: string; healthPort: number | undefined; flush(): Promise<void> }> {
  const hosts = [
    { name: 'gateway', host: stack.gateway.host },
    ...[...stack.services].map(([name, host]) => ({ name, host })),
    { name: 'sandbox-worker', host: worker },
  ];
  return hosts.map(({ name, host }) => ({ name, healthPort: host.healthPort(), flush: () => host.telemetry.flush() }));
}

async function scrape(port: number | undefined): Promise<{ status: number; contentType: string | null; text: string }> {
  const response = await fetch(`http://127.0.0.1:${port}/metrics`);
  return { status: response.status, contentType: response.headers.get('content-type'), text: await response.text() };
}

/** Names of the series in a text exposition (histograms by their base name). */
const seriesNames = (text: string) =>
  new Set(
    text
      .split('\n')
      .filter((line) => line.startsWith('# TYPE '))
      .map((line) => line.split(' ')[2]!),
  );

describe('/metrics', () => {
  test('every process serves prom-client text on its health port: process metrics, bus calls, and what it does', async () => {
    // Some traffic first, so the request series exist: a create crosses the gateway, deployments, catalog and vaults.
    const world = await deploymentWorld(api);
    const vault = await createVault(api);
    expect((await api('POST', '/v1/deployments', { body: world.body({ vault_ids: [vault.id] }) })).status).toBe(200);
    expect((await api('GET', '/v1/deployments/depl_doesnotexist')).status).toBe(404);

    const all = processes();
    expect(all.map((p) => p.name).sort()).toEqual(['catalog', 'deployments', 'gateway', 'runtime', 'sandbox-worker', 'scheduler', 'vaults']);
    const texts = new Map<string, string>();
    for (const p of all) {
      expect(p.healthPort).toBeGreaterThan(0);
      const scraped = await scrape(p.healthPort);
      expect(scraped.status).toBe(200);
      expect(scraped.contentType).toStartWith('text/plain; version=0.0.4');
      texts.set(p.name, scraped.text);
      const names = seriesNames(scraped.text);
      // The process's own (prom-client's default metrics, in each service's own registry).
      for (const name of ['process_cpu_seconds_total', 'process_resident_memory_bytes', 'nodejs_eventloop_lag_seconds']) {
        expect(names).toContain(name);
      }
      // Every process calls over the bus (the client's series exist from the first call).
      expect(names).toContain('bus_client_calls_total');
      expect(names).toContain('bus_client_call_duration_seconds');
    }

    const gateway = texts.get('gateway')!;
    expect(gateway).toMatch(/^http_requests_total\{method="POST",route="\/v1\/deployments",status="200"\} 1$/m);
    // The route template, never the path the client sent.
    expect(gateway).toMatch(/^http_requests_total\{method="GET",route="\/v1\/deployments\/:deployment_id",status="404"\} 1$/m);
    expect(gateway).not.toContain('depl_doesnotexist');
    expect(gateway).toMatch(/^http_request_duration_seconds_count\{method="POST",route="\/v1\/deployments"\} 1$/m);
    expect(gateway).toMatch(/^bus_client_calls_total\{subject="deployments\.deployments\.create",outcome="ok"\} 1$/m);

    const deployments = texts.get('deployments')!;
    expect(deployments).toMatch(/^bus_server_requests_total\{subject="deployments\.deployments\.create",outcome="ok"\} 1$/m);
    expect(deployments).toMatch(/^bus_server_request_duration_seconds_count\{subject="deployments\.deployments\.create"\} 1$/m);
    expect(deployments).toMatch(/^bus_client_calls_total\{subject="vaults\.vaults\.check",outcome="ok"\} 1$/m);
    expect(texts.get('vaults')!).toMatch(/^bus_server_requests_total\{subject="vaults\.vaults\.check",outcome="ok"\} 1$/m);

    // Services with a database: its statements and its pool; with an outbox: its backlog and age; with a bus server: the bulkhead.
    for (const name of ['gateway', 'deployments', 'vaults', 'catalog', 'scheduler', 'runtime']) {
      const names = seriesNames(texts.get(name)!);
      for (const series of ['db_statements_total', 'db_statement_duration_seconds', 'db_pool_connections', 'db_pool_waiting', 'db_pool_max_connections']) {
        expect(names).toContain(series);
      }
      expect(texts.get(name)!).toMatch(/^db_pool_max_connections 5$/m);
      expect(texts.get(name)!).toMatch(/^db_pool_connections\{state="idle"\} \d+$/m);
    }
    expect(deployments).toMatch(/^db_statements_total\{operation="insert",outcome="ok"\} \d+$/m);
    for (const name of ['deployments', 'vaults', 'catalog']) {
      const text = texts.get(name)!;
      for (const series of ['outbox_backlog_rows', 'outbox_oldest_event_age_seconds', 'outbox_dead_letter_rows', 'outbox_publish_failures_total', 'outbox_rows_parked_total']) {
        expect(seriesNames(text)).toContain(series);
      }
      expect(text).toMatch(/^outbox_backlog_rows \d+$/m);
    }
    for (const name of ['deployments', 'vaults', 'catalog', 'scheduler', 'runtime']) {
      expect(texts.get(name)!).toMatch(/^bus_tenant_requests_queued 0$/m);
      expect(texts.get(name)!).toMatch(/^bus_tenant_requests_refused_total\{reason="queue_full"\} 0$/m);
    }
    // Each service's own series, under the names they had before prom-client.
    for (const series of ['scheduler_due_backlog', 'scheduler_fires_total', 'scheduler_skipped_misfires_total', 'scheduler_fire_lag_seconds']) {
      expect(seriesNames(texts.get('scheduler')!)).toContain(series);
    }
    expect(texts.get('runtime')!).toMatch(/^runtime_cloud_work_items\{state="queued"\} \d+$/m);
    expect(texts.get('sandbox-worker')!).toMatch(/^sandbox_busy 0$/m);
    expect(texts.get('sandbox-worker')!).toMatch(/^sandbox_sessions_total\{outcome="served"\} 0$/m);
  });

  test('the public port does not serve /metrics', async () => {
    const response = await fetch(`${stack.url}/metrics`);
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain('process_cpu');
  });
});

describe('traces', () => {
  test('one create is one trace: the gateway root span, the bus hops and the statements of deployments, catalog and vaults', async () => {
    const world = await deploymentWorld(api);
    const vault = await createVault(api);
    const created = await api('POST', '/v1/deployments', { body: world.body({ vault_ids: [vault.id] }) });
    expect(created.status).toBe(200);
    const requestId = created.headers.get('request-id')!;

    // The root span ends just after the answer is written: flush until it has been exported.
    const root = await eventually('the root span of the create', async () => {
      await Promise.all(processes().map((p) => p.flush()));
      return collector.spans.find((s) => s.service === 'gateway' && s.attributes.request_id === requestId && s.parentSpanId === '');
    });
    expect(root.name).toBe('POST /v1/deployments');
    expect(root.attributes['http.route']).toBe('/v1/deployments');
    expect(root.attributes['http.response.status_code']).toBe(200);
    expect([...collector.contentTypes]).toEqual(['application/json']);

    // Flushed once more: every span of the request ended before its answer (the root last).
    await Promise.all(processes().map((p) => p.flush()));
    const trace = collector.spans.filter((s) => s.traceId === root.traceId);
    expect(new Set(trace.map((s) => s.service))).toEqual(new Set(['gateway', 'deployments', 'catalog', 'vaults']));
    // Everything that carries the request id is in this one trace.
    const ofRequest = collector.spans.filter((s) => s.attributes.request_id === requestId);
    expect(new Set(ofRequest.map((s) => s.traceId))).toEqual(new Set([root.traceId]));

    // Each hop's parent is the span that made it: the gateway's call -> the deployments handler -> its calls -> their handlers.
    const byId = new Map(trace.map((s) => [s.spanId, s]));
    const parentOf = (span: ExportedSpan) => byId.get(span.parentSpanId);
    const handler = (service: string, subject: string) => trace.find((s) => s.service === service && s.name === subject && s.kind === 2)!;
    const create = handler('deployments', 'deployments.deployments.create');
    expect(parentOf(create)).toMatchObject({ service: 'gateway', name: 'deployments.deployments.create', kind: 3 });
    expect(parentOf(parentOf(create)!)!.spanId).toBe(root.spanId);
    for (const [service, subject] of [['catalog', 'catalog.references.resolve'], ['vaults', 'vaults.vaults.check']] as const) {
      const served = handler(service, subject);
      expect(parentOf(served)).toMatchObject({ service: 'deployments', name: subject, kind: 3 });
      expect(parentOf(parentOf(served)!)!.spanId).toBe(create.spanId);
    }
    // Statements are spans of the work they belong to.
    const statements = trace.filter((s) => s.attributes['db.system.name'] === 'mysql');
    expect(statements.some((s) => s.service === 'deployments' && s.attributes['db.operation.name'] === 'insert')).toBe(true);
    expect(statements.some((s) => s.service === 'catalog' && s.attributes['db.operation.name'] === 'select')).toBe(true);
    for (const statement of statements) expect(parentOf(statement)?.service).toBe(statement.service);
  });

  test('an event published by a traced handler links its consumer\'s span (a trace of its own) to the trace that recorded it', async () => {
    const world = await deploymentWorld(api);
    const created = await api('POST', '/v1/deployments', {
      body: world.body({ schedule: { type: 'cron', expression: '0 3 * * *', timezone: 'UTC' } }),
    });
    expect(created.status).toBe(200);
    const requestId = created.headers.get('request-id')!;
    const root = await eventually('the root span of the create', async () => {
      await Promise.all(processes().map((p) => p.flush()));
      return collector.spans.find((s) => s.service === 'gateway' && s.attributes.request_id === requestId && s.parentSpanId === '');
    });
    // The scheduler consumes deployments.created: its handling is a consumer span (kind 5) of a new trace, linked to the create's.
    const consumed = await eventually('the scheduler\'s handling of the created event', async () => {
      await Promise.all(processes().map((p) => p.flush()));
      return collector.spans.find((s) => s.service === 'scheduler' && s.kind === 5 && s.links.some((l) => l.traceId === root.traceId));
    });
    expect(consumed.name).toBe('deployments.created process');
    expect(consumed.parentSpanId).toBe('');
    expect(consumed.traceId).not.toBe(root.traceId);
    const publisher = collector.spans.find((s) => s.spanId === consumed.links[0]!.spanId)!;
    expect(publisher).toMatchObject({ service: 'deployments', name: 'deployments.deployments.create', traceId: root.traceId });
  });
});
