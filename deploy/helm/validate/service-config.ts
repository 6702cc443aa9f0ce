/**
 * The chart against the services' own configuration schemas (services/<name>/src/config.ts,
 * deploy/bin/migrate.ts): each rendered component's environment (ConfigMap + env, secrets
 * resolved from the rendered Secret or, for an existing Secret, well-formed stand-ins) must
 * (1) set only variables that service reads, and (2) be accepted by the service's own loader.
 * This is what "Helm values map one-to-one onto the config schema" means, checked.
 */
import { resolve } from "node:path";
import { describe, get, isObject, kindOf, nameOf, type Finding, type Manifest } from "./manifests.ts";

const REPO_ROOT = resolve(import.meta.dir, "../../..");
const COMPONENT_LABEL = "app.kubernetes.io/component";
const SERVICES = ["gateway", "deployments", "vaults", "catalog", "scheduler"] as const;

type Env = Record<string, string>;
type Loader = (env: Env) => unknown;

/** What deploy/bin/migrate.ts reads (besides DATABASE_NAME_<SERVICE>). */
const MIGRATE_VARIABLES = new Set(["NODE_ENV", "LOG_LEVEL", "MYSQL_URL", "MYSQL_PASSWORD", "MYSQL_POOL_SIZE"]);

const capitalized = (name: string) => `${name[0]!.toUpperCase()}${name.slice(1)}`;

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
  if (variable === "CURSOR_KEY") return key;
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
