/**
 * The chart against the services' own configuration schemas (services/<name>/src/config.ts,
 * deploy/bin/migrate.ts): each rendered component's environment (ConfigMap + env, secrets
 * resolved from the rendered Secret or, for an existing Secret, well-formed stand-ins) must
 * (1) set only variables that service reads, and (2) be accepted by the service's own loader;
 * and (3) every variable a service reads must be set somewhere in the chart's templates
 * (checkChartCoversServiceConfig), so a new setting cannot ship without its value.
 * This is what "Helm values map one-to-one onto the config schema" means, checked.
 */
import { readdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import { DatabaseConfig } from "../../../shared/config/load-config.ts";
import { describe, get, isObject, kindOf, nameOf, type Finding, type Manifest } from "./manifests.ts";

const REPO_ROOT = resolve(import.meta.dir, "../../..");
const COMPONENT_LABEL = "app.kubernetes.io/component";
const SERVICES = ["gateway", "deployments", "vaults", "catalog", "scheduler", "runtime", "sandbox-worker"] as const;

type Env = Record<string, string>;
type Loader = (env: Env) => unknown;

/** What deploy/bin/migrate.ts reads (besides DATABASE_NAME_<SERVICE>): the same schema parts it loads. */
const MIGRATE_VARIABLES = new Set(["NODE_ENV", "LOG_LEVEL", ...Object.keys(DatabaseConfig)]);

/**
 * Variables a service reads that the chart deliberately leaves to the service's default, each
 * with the reason. Anything else a service reads must have a value in the chart.
 */
export const NOT_FROM_VALUES: Readonly<Record<string, string>> = {
  OTEL_EXPORTER_OTLP_HEADERS:
    "may carry a collector's credentials, so no plain value: give it from a Secret of yours with <component>.extraEnv (valueFrom.secretKeyRef)",
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT:
    "tracing.otlpEndpoint is the collector's base URL (spans go to its /v1/traces); a traces URL elsewhere is for <component>.extraEnv",
  SCHEDULER_WORKER_ID:
    "its default is the host name (in Kubernetes the pod name) and pid, unique per replica; one chart value would be the same for every replica",
  RUNTIME_WORKER_ID:
    "its default is the host name (in Kubernetes the pod name) and pid, unique per replica; one chart value would be the same for every replica",
  SANDBOX_WORKER_ID:
    "its default is the host name (in Kubernetes the pod name) and pid, unique per replica; one chart value would be the same for every replica",
  SANDBOX_INTERCEPTION_CA_CERT:
    "a file: mount the installation's interception CA from a Secret of yours (<component>.extraVolumes) and point this at it with <component>.extraEnv; unset, each worker makes its own",
  SANDBOX_INTERCEPTION_CA_KEY:
    "a private key: only from a Secret of yours (<component>.extraVolumes and extraEnv), never a plain value",
  SANDBOX_UPSTREAM_CA_FILE:
    "a file of CAs (a mirror's, a corporate proxy's): mount it from a ConfigMap of yours and point this at it with <component>.extraEnv",
  SANDBOX_BWRAP:
    "the image installs bubblewrap on PATH (the default, bwrap); a value could only point the worker at a program the image does not have",
};

/** `sandbox-worker` -> `SandboxWorker`: how a service's config.ts names its exports. */
const capitalized = (name: string) => name.split("-").map((part) => `${part[0]!.toUpperCase()}${part.slice(1)}`).join("");

async function serviceConfig(service: string): Promise<{ variables: Set<string>; load: Loader }> {
  const module = (await import(`${REPO_ROOT}/services/${service}/src/config.ts`)) as Record<string, unknown>;
  const schema = module[`${capitalized(service)}ConfigSchema`];
  const load = module[`load${capitalized(service)}Config`];
  if (!isObject(schema) || typeof load !== "function") {
    throw new Error(`services/${service}/src/config.ts must export ${capitalized(service)}ConfigSchema and load${capitalized(service)}Config`);
  }
  return { variables: new Set(Object.keys(schema)), load: load as Loader };
}

/** Stand-ins for values held in a Secret the render does not contain (existingSecret). */
function standIn(variable: string, env: Env): string {
  const key = Buffer.alloc(32, 1).toString("base64");
  if (variable === "MASTER_KEYS") return `${env.MASTER_KEY_ID ?? "k1"}:${key}`;
  if (variable === "CURSOR_KEY" || variable === "SESSIONS_TOKEN_KEY") return key;
  if (variable === "NATS_PASSWORD") return "standInNatsPassword0123456789";
  return "stand-in-secret";
}

/** The environment a container starts with, as far as the render determines it. */
function containerEnv(manifests: Manifest[], container: unknown): Env {
  const env: Env = {};
  for (const source of (get(container, "envFrom") as unknown[] | undefined) ?? []) {
    const configMap = manifests.find((m) => kindOf(m) === "ConfigMap" && nameOf(m) === get(source, "configMapRef", "name"));
    for (const [key, value] of Object.entries((get(configMap?.value, "data") as Env | undefined) ?? {})) env[key] = String(value);
  }
  const fromSecrets: [string, unknown][] = [];
  for (const entry of (get(container, "env") as unknown[] | undefined) ?? []) {
    const name = String(get(entry, "name"));
    if (get(entry, "value") !== undefined) env[name] = String(get(entry, "value"));
    else if (get(entry, "valueFrom", "secretKeyRef")) fromSecrets.push([name, get(entry, "valueFrom", "secretKeyRef")]);
  }
  for (const [name, ref] of fromSecrets) {
    const secret = manifests.find((m) => kindOf(m) === "Secret" && nameOf(m) === get(ref, "name"));
    const encoded = get(secret?.value, "data", String(get(ref, "key")));
    env[name] = typeof encoded === "string" ? Buffer.from(encoded, "base64").toString() : standIn(name, env);
  }
  return env;
}

/** The chart's template text without comments (a variable named only in a comment is not set). */
async function templateText(chartDir: string): Promise<string> {
  const dir = join(chartDir, "templates");
  const files = (await readdir(dir)).filter((f) => f.endsWith(".tpl") || f.endsWith(".yaml")).sort();
  const texts = await Promise.all(files.map((f) => Bun.file(join(dir, f)).text()));
  return texts
    .join("\n")
    .replace(/\{\{-?\s*\/\*[\s\S]*?\*\/\s*-?\}\}/g, "")
    .replace(/^\s*#.*$/gm, "");
}

/**
 * (3) Every variable of every service's config schema appears as a name in the chart's
 * templates (an env key, an EnvVar name or a Secret key mapping), unless NOT_FROM_VALUES says
 * why not. Textual on purpose: a render only shows the variables its values switch on.
 */
export async function checkChartCoversServiceConfig(chartDir: string): Promise<Finding[]> {
  const text = await templateText(chartDir);
  const findings: Finding[] = [];
  for (const service of SERVICES) {
    const { variables } = await serviceConfig(service);
    for (const variable of variables) {
      if (variable in NOT_FROM_VALUES) continue;
      if (new RegExp(`(?<![A-Za-z0-9_])${variable}(?![A-Za-z0-9_])`).test(text)) continue;
      findings.push({
        doc: `services/${service}/src/config.ts`,
        path: variable,
        message: `the ${service} service reads this variable but no chart template sets it: add a value (values.yaml, values.schema.json, templates/_helpers.tpl, README table) or a reason in NOT_FROM_VALUES`,
      });
    }
  }
  return findings;
}

export async function checkServiceConfig(manifests: Manifest[]): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const m of manifests) {
    const component = get(m.value, "metadata", "labels", COMPONENT_LABEL);
    const isService = kindOf(m) === "Deployment" && (SERVICES as readonly unknown[]).includes(component);
    const isMigrations = kindOf(m) === "Job" && component === "migrations";
    if (!isService && !isMigrations) continue;
    const containers = (get(m.value, "spec", "template", "spec", "containers") as unknown[] | undefined) ?? [];
    const env = containerEnv(manifests, containers[0]);
    const at = "spec.template.spec.containers[0]";
    if (isMigrations) {
      for (const variable of Object.keys(env)) {
        const database = /^DATABASE_NAME_([A-Z]+)$/.exec(variable)?.[1]?.toLowerCase();
        if (!MIGRATE_VARIABLES.has(variable) && !(database && (SERVICES as readonly string[]).includes(database))) {
          findings.push({ doc: describe(m), path: `${at}.env.${variable}`, message: "deploy/bin/migrate.ts does not read this variable" });
        }
      }
      continue;
    }
    const { variables, load } = await serviceConfig(String(component));
    for (const variable of Object.keys(env)) {
      if (!variables.has(variable)) {
        findings.push({ doc: describe(m), path: `${at}.env.${variable}`, message: `the ${component} service does not read this variable (services/${component}/src/config.ts)` });
      }
    }
    try {
      load(env);
    } catch (error) {
      findings.push({ doc: describe(m), path: `${at}.env`, message: `the ${component} service would refuse to start: ${(error as Error).message}` });
    }
  }
  return findings;
}

/** `bun deploy/helm/validate/service-config.ts --chart DIR`: check (3) alone, for .ci/validate-chart. */
if (import.meta.main) {
  const at = process.argv.indexOf("--chart");
  const chartDir = at > 0 ? process.argv[at + 1] : undefined;
  if (!chartDir) {
    console.error("usage: service-config.ts --chart DIR");
    process.exit(2);
  }
  const findings = await checkChartCoversServiceConfig(chartDir);
  for (const f of findings) console.error(`  ✗ ${f.doc}: ${f.path}: ${f.message}`);
  if (findings.length > 0) process.exit(1);
  console.log("service-config: every variable the services read is set by the chart");
}
