/**
 * Step (a): each document against the Kubernetes OpenAPI schema, through the kubernetes-models
 * class for its apiVersion/kind (missing required fields, wrong types, unknown kinds). These
 * validators accept unknown field names; type-check.ts catches those.
 */
import { describe, get, isObject, pointerToPath, type Finding, type Manifest } from "./manifests.ts";

interface ModelClass {
  new (data: unknown): { validate(): void };
}

interface AjvError {
  instancePath?: string;
  message?: string;
  params?: Record<string, unknown>;
}

/** Kinds kubernetes-models does not ship, validated by hand. */
const CUSTOM_KINDS = new Set(["monitoring.coreos.com/v1/ServiceMonitor"]);

/** Module of the kubernetes-models class for an apiVersion/kind (`v1` is the core group). */
export function modelModule(apiVersion: string, kind: string): string {
  const [group, version] = apiVersion.includes("/") ? apiVersion.split("/", 2) : ["", apiVersion];
  return group ? `kubernetes-models/${group}/${version}/${kind}` : `kubernetes-models/${version}/${kind}`;
}

export function isCustomKind(m: Manifest): boolean {
  return CUSTOM_KINDS.has(`${m.value.apiVersion}/${m.value.kind}`);
}

async function loadModel(apiVersion: string, kind: string): Promise<ModelClass | undefined> {
  try {
    const module = (await import(modelModule(apiVersion, kind))) as Record<string, unknown>;
    return typeof module[kind] === "function" ? (module[kind] as ModelClass) : undefined;
  } catch {
    return undefined;
  }
}

export async function checkSchemas(manifests: Manifest[]): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const m of manifests) {
    const { apiVersion, kind } = m.value;
    if (typeof apiVersion !== "string" || typeof kind !== "string") {
      findings.push({ doc: describe(m), path: "apiVersion/kind", message: "missing apiVersion or kind" });
      continue;
    }
    if (isCustomKind(m)) {
      findings.push(...checkServiceMonitor(m));
      continue;
    }
    const Model = await loadModel(apiVersion, kind);
    if (!Model) {
      findings.push({ doc: describe(m), path: "apiVersion", message: `unknown apiVersion/kind ${apiVersion} ${kind}` });
      continue;
    }
    try {
      new Model(m.value).validate();
    } catch (error) {
      const errors = (error as { errors?: AjvError[] }).errors;
      if (!errors?.length) {
        findings.push({ doc: describe(m), path: "", message: (error as Error).message });
        continue;
      }
      for (const e of errors) {
        const missing = e.params?.missingProperty;
        const base = pointerToPath(e.instancePath ?? "");
        const path = typeof missing === "string" ? (base ? `${base}.${missing}` : missing) : base;
        findings.push({ doc: describe(m), path, message: e.message ?? "invalid" });
      }
    }
  }
  return findings;
}

/** Minimal structural check of a ServiceMonitor (field names are checked by the typed step). */
function checkServiceMonitor(m: Manifest): Finding[] {
  const findings: Finding[] = [];
  const fail = (path: string, message: string) => findings.push({ doc: describe(m), path, message });
  if (typeof get(m.value, "metadata", "name") !== "string") fail("metadata.name", "must be a string");
  if (!isObject(get(m.value, "spec", "selector"))) fail("spec.selector", "must be a label selector");
  const endpoints = get(m.value, "spec", "endpoints");
  if (!Array.isArray(endpoints) || endpoints.length === 0) {
    fail("spec.endpoints", "must list at least one endpoint");
    return findings;
  }
  endpoints.forEach((endpoint, i) => {
    const at = `spec.endpoints[${i}]`;
    if (!isObject(endpoint)) return fail(at, "must be an object");
    if (typeof endpoint.port !== "string" && endpoint.targetPort === undefined) fail(`${at}.port`, "needs port (name) or targetPort");
    if (endpoint.path !== undefined && !(typeof endpoint.path === "string" && endpoint.path.startsWith("/"))) {
      fail(`${at}.path`, "must start with /");
    }
    for (const key of ["interval", "scrapeTimeout"]) {
      const value = endpoint[key];
      if (value !== undefined && !(typeof value === "string" && /^(\d+(ms|s|m|h))+$/.test(value))) {
        fail(`${at}.${key}`, "must be a duration such as 30s");
      }
    }
  });
  return findings;
}
