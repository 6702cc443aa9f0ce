/**
 * SDK surface audit: which managed-agents methods of the official SDK work against a running
 * gateway, for each SDK version users run (1.14.0 and 0.137.0), with unchanged clients (base URL
 * and key only). The methods come from each SDK's own `client.beta` resource tree; each is called
 * once with arguments built from what the audit made first (made-up ids where the product cannot
 * make the thing), then everything made is archived and deleted. Measures, never asserts: exit 0.
 *
 *   PORT=8090 bun run dev     # in another shell
 *   BASE_URL=http://127.0.0.1:8090 API_KEY=sk-agents-development-key-not-for-production bun bench/sdk-surface-audit.ts [--json]
 *
 * A failure reads `no such route` when the gateway has no route for the call (its 404 says
 * "Not found: no such route"), otherwise `<status> <error type>: <message>` (a resource 404
 * means the route exists). Not part of `bun test`.
 */
import Anthropic from '@anthropic-ai/sdk';
import AnthropicV0 from 'anthropic-sdk-v0';
import { auditCalls, type Ids } from './sdk-audit/calls';

const BASE_URL = process.env.BASE_URL ?? 'http://127.0.0.1:8080';
const API_KEY = process.env.API_KEY ?? 'sk-agents-development-key-not-for-production';
const asJson = process.argv.includes('--json');

/** Both typed as the current SDK's client: the managed-agents surfaces are the same shape in both. */
const SDKS = [
  { version: '1.14.0', Client: Anthropic },
  { version: '0.137.0', Client: AnthropicV0 as unknown as typeof Anthropic },
] as const;

/** The parts of `client.beta` the product serves; every other one is listed as not audited. */
const AUDITED = ['agents', 'environments', 'sessions', 'vaults', 'memoryStores', 'files', 'skills', 'deployments', 'deploymentRuns', 'models'];
/** Client-side helpers (loops over other methods), not routes of their own. */
const HELPERS = new Set(['beta.environments.work.poller', 'beta.environments.work.worker', 'beta.sessions.events.toolRunner']);

interface Outcome {
  method: string;
  ok: boolean;
  /** `OK`, `no such route`, `<status> <type>: <message>`, or what the client threw. */
  result: string;
  ms: number;
}

/** Every public method under a resource, depth first: `beta.sessions.events.list`, ... */
function methodsOf(resource: object, path: string, out: string[] = []): string[] {
  const names = new Set<string>();
  for (let proto = Object.getPrototypeOf(resource); proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    if (proto.constructor?.name === 'APIResource') break;
    for (const name of Object.getOwnPropertyNames(proto)) {
      if (name !== 'constructor' && !name.startsWith('_') && typeof (resource as Record<string, unknown>)[name] === 'function') names.add(name);
    }
  }
  for (const name of names) out.push(`${path}.${name}`);
  for (const [key, value] of Object.entries(resource)) {
    if (key !== '_client' && value && typeof value === 'object' && '_client' in value) methodsOf(value, `${path}.${key}`, out);
  }
  return out;
}

const short = (text: string, max = 110) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

function describeFailure(err: unknown): string {
  const e = err as { status?: unknown; error?: unknown; message?: unknown; name?: unknown };
  if (typeof e?.status === 'number') {
    const body = e.error as { error?: { type?: string; message?: string }; type?: string; message?: string } | undefined;
    const inner = body?.error ?? body;
    const message = inner?.message ?? String(e.message ?? '');
    if (e.status === 404 && /no such route/i.test(message)) return 'no such route';
    return short(`${e.status} ${inner?.type ?? 'error'}: ${message}`);
  }
  return short(`client ${String(e?.name ?? 'error')}: ${String(e?.message ?? err)}`);
}

async function audit(version: string, Client: typeof Anthropic) {
  const client = new Client({ baseURL: BASE_URL, apiKey: API_KEY, maxRetries: 0, timeout: 15_000 });
  const all = methodsOf(client.beta, 'beta');
  const audited = all.filter((m) => AUDITED.includes(m.split('.')[1]!) && !HELPERS.has(m));
  const notAudited = all.filter((m) => !AUDITED.includes(m.split('.')[1]!));
  const run = `${version}-${Date.now().toString(36)}`;
  const ids: Ids = {};
  const outcomes = new Map<string, Outcome>();
  const setupFailures: string[] = [];
  for (const call of auditCalls(run)) {
    const started = performance.now();
    let result = 'OK';
    try {
      await call.run(client, ids);
    } catch (err) {
      result = describeFailure(err);
    }
    if (call.setup) {
      if (result !== 'OK') setupFailures.push(`${call.method} (setup): ${result}`);
      continue;
    }
    const result2 = audited.includes(call.method) ? result : 'not in this SDK version';
    outcomes.set(call.method, { method: call.method, ok: result2 === 'OK', result: result2, ms: Math.round(performance.now() - started) });
  }
  for (const method of audited) {
    if (!outcomes.has(method)) outcomes.set(method, { method, ok: false, result: 'not called (no call written for it yet)', ms: 0 });
  }
  const ordered = [...audited.map((m) => outcomes.get(m)!), ...[...outcomes.values()].filter((o) => !audited.includes(o.method))];
  const notAuditedGroups = [...new Set(notAudited.map((m) => m.split('.')[1]!))];
  return { version, outcomes: ordered, setupFailures, notAudited: { groups: notAuditedGroups, methods: notAudited.length }, helpers: [...HELPERS] };
}

const reports: Awaited<ReturnType<typeof audit>>[] = [];
for (const { version, Client } of SDKS) reports.push(await audit(version, Client));

const okSet = (r: (typeof reports)[number]) => new Set(r.outcomes.filter((o) => o.ok).map((o) => o.method));
const [first, second] = [reports[0]!, reports[1]!];
const onlyIn = (a: typeof first, b: typeof first) => [...okSet(a)].filter((m) => !okSet(b).has(m));
const summary = {
  base_url: BASE_URL,
  counts: Object.fromEntries(
    reports.map((r) => [r.version, { ok: okSet(r).size, no_such_route: r.outcomes.filter((o) => o.result === 'no such route').length, other_failure: r.outcomes.filter((o) => !o.ok && o.result !== 'no such route').length, audited: r.outcomes.length }]),
  ),
  ok_only_in: { [first.version]: onlyIn(first, second), [second.version]: onlyIn(second, first) },
};

if (asJson) {
  console.log(JSON.stringify({ reports, summary }, null, 2));
} else {
  for (const r of reports) {
    console.log(`\n== @anthropic-ai/sdk ${r.version} against ${BASE_URL}`);
    const width = Math.max(...r.outcomes.map((o) => o.method.length));
    for (const o of r.outcomes) console.log(`  ${o.method.padEnd(width)}  ${o.ok ? 'OK' : o.result}`);
    for (const f of r.setupFailures) console.log(`  ! ${f}`);
    console.log(`  not audited: ${r.notAudited.methods} methods of ${r.notAudited.groups.join(', ')}; client helpers without a route of their own: ${r.helpers.join(', ')}`);
  }
  console.log('\n== Summary');
  for (const r of reports) {
    const n = summary.counts[r.version]!;
    console.log(`  ${r.version}: ${n.ok} OK of ${n.audited} audited; ${n.no_such_route} no such route; ${n.other_failure} other failures`);
  }
  for (const [version, methods] of Object.entries(summary.ok_only_in)) console.log(`  OK only with ${version}: ${methods.length ? methods.join(', ') : 'none'}`);
}
process.exit(0);
