/**
 * Checks specific to this chart, on the rendered documents and the values that produced them:
 * (c) no secret outside a Secret, (d) gateway, scheduler, runtime and sandbox worker scale independently, plus the
 * invariants the templates must keep (security context, probes, references between objects,
 * hook ordering). Each returns findings; none throws.
 */
import { describe, forEachString, get, isObject, kindOf, nameOf, type Finding, type Manifest } from "./manifests.ts";

type Values = Record<string, unknown>;

const COMPONENT_LABEL = "app.kubernetes.io/component";

/** ConfigMap keys that look secret by name but are not (documented in the chart README). */
const NON_SECRET_CONFIG_KEYS = new Set([
  "MASTER_KEY_ID", // which key is active, not the key
  "KEY_CACHE_TTL_MS", // API key cache lifetime
  "RATE_LIMIT_KEY_REQUESTS_PER_MINUTE", // requests one API key may make per minute, a number
  "ALLOW_DEV_KEY", // a boolean switch
  "NATS_TLS_KEY_FILE", // path of the client key mounted from nats.tls.existingSecret, not the key
  "MODEL_MAX_TOKENS", // max_tokens of a model request, a number
  "SESSIONS_TOKEN_TTL_SECONDS", // lifetime of a sessions token, not the token or its key
]);
const SECRET_LIKE_NAME = /KEY|PASSWORD|PASSWD|SECRET|TOKEN|CREDENTIAL/i;

const SECRET_VALUE_KEYS = ["mysqlPassword", "masterKeys", "cursorKey", "sessionsTokenKey", "modelApiKey"] as const;

/** The literal secrets in the values (`secrets.*`), by value key. */
function literalSecrets(values: Values): { key: string; value: string }[] {
  const found: { key: string; value: string }[] = [];
  for (const key of SECRET_VALUE_KEYS) {
    const value = get(values, "secrets", key);
    if (typeof value === "string" && value !== "") found.push({ key, value });
  }
  const natsPasswords = get(values, "secrets", "natsPasswords");
  for (const [component, value] of Object.entries(isObject(natsPasswords) ? natsPasswords : {})) {
    if (typeof value === "string" && value !== "") found.push({ key: `natsPasswords.${component}`, value });
  }
  return found;
}

/** Strings that must not appear outside a Secret: each secret, each master key on its own, base64 forms too. */
export function secretNeedles(values: Values): string[] {
  const plain = literalSecrets(values).flatMap(({ key, value }) =>
    key === "masterKeys" ? [value, ...value.split(",").map((entry) => entry.slice(entry.indexOf(":") + 1))] : [value],
  );
  return plain.filter((s) => s.length >= 8).flatMap((s) => [s, Buffer.from(s).toString("base64")]);
}

/** (c) No ConfigMap key named like a secret, no secret value (plain or base64) outside a Secret. */
export function checkNoSecretsOutsideSecrets(manifests: Manifest[], values: Values): Finding[] {
  const findings: Finding[] = [];
  const needles = secretNeedles(values);
  for (const m of manifests) {
    if (kindOf(m) === "Secret") continue;
    if (kindOf(m) === "ConfigMap") {
      for (const section of ["data", "binaryData"]) {
        const data = m.value[section];
        if (!isObject(data)) continue;
        for (const key of Object.keys(data)) {
          if (SECRET_LIKE_NAME.test(key) && !NON_SECRET_CONFIG_KEYS.has(key)) {
            findings.push({ doc: describe(m), path: `${section}.${key}`, message: "key named like a secret in a ConfigMap" });
          }
        }
      }
    }
    forEachString(m.value, (path, text) => {
      if (needles.some((needle) => text.includes(needle))) {
        findings.push({ doc: describe(m), path, message: "contains a secret value from the values (secrets belong in a Secret)" });
      }
    });
  }
  // Guard against a vacuous pass (the check above compared against the wrong strings):
  // each literal secret must be in the data of some rendered Secret.
  const secretData = manifests
    .filter((m) => kindOf(m) === "Secret")
    .flatMap((m) => [...Object.values(get(m.value, "data") ?? {}), ...Object.values(get(m.value, "stringData") ?? {}).map((v) => Buffer.from(String(v)).toString("base64"))]);
  for (const { key, value } of literalSecrets(values)) {
    if (!secretData.includes(Buffer.from(value).toString("base64"))) {
      findings.push({ doc: "(values)", path: `secrets.${key}`, message: "is set but in no rendered Secret" });
    }
  }
  return findings;
}

function deploymentOf(manifests: Manifest[], component: string): Manifest | undefined {
  return manifests.find((m) => kindOf(m) === "Deployment" && get(m.value, "metadata", "labels", COMPONENT_LABEL) === component);
}

function hpaFor(manifests: Manifest[], deployment: Manifest): Manifest | undefined {
  return manifests.find(
    (m) =>
      kindOf(m) === "HorizontalPodAutoscaler" &&
      get(m.value, "spec", "scaleTargetRef", "kind") === "Deployment" &&
      get(m.value, "spec", "scaleTargetRef", "name") === nameOf(deployment),
  );
}

/**
 * (d) gateway, scheduler, runtime and sandbox worker each scale from their own values: a Deployment with its own
 * replicaCount, or its own HPA with its own bounds (and then no fixed replicas). With
 * `expectHpa`, those components must have an HPA.
 */
export function checkIndependentScaling(manifests: Manifest[], values: Values, expectHpa: string[]): Finding[] {
  const findings: Finding[] = [];
  const seenHpas = new Set<Manifest>();
  for (const component of ["gateway", "scheduler", "runtime", "sandbox-worker"]) {
    const deployment = deploymentOf(manifests, component);
    if (!deployment) {
      findings.push({ doc: `(render)`, path: component, message: `no Deployment for the ${component}` });
      continue;
    }
    const own = get(values, component) as Values;
    const hpa = hpaFor(manifests, deployment);
    const replicas = get(deployment.value, "spec", "replicas");
    if (get(own, "autoscaling", "enabled") === true) {
      if (!hpa) {
        findings.push({ doc: describe(deployment), path: "spec", message: `${component}.autoscaling.enabled but no HPA targets it` });
        continue;
      }
      if (seenHpas.has(hpa)) findings.push({ doc: describe(hpa), path: "spec.scaleTargetRef", message: "one HPA shared by several components" });
      seenHpas.add(hpa);
      for (const key of ["minReplicas", "maxReplicas"]) {
        if (get(hpa.value, "spec", key) !== get(own, "autoscaling", key)) {
          findings.push({ doc: describe(hpa), path: `spec.${key}`, message: `is ${get(hpa.value, "spec", key)}, expected ${component}.autoscaling.${key} = ${get(own, "autoscaling", key)}` });
        }
      }
      if (replicas !== undefined) {
        findings.push({ doc: describe(deployment), path: "spec.replicas", message: "set although an HPA owns the replica count (upgrades would reset it)" });
      }
    } else {
      if (hpa) findings.push({ doc: describe(hpa), path: "spec.scaleTargetRef", message: `targets the ${component} although ${component}.autoscaling.enabled is false` });
      if (replicas !== get(own, "replicaCount")) {
        findings.push({ doc: describe(deployment), path: "spec.replicas", message: `is ${replicas}, expected ${component}.replicaCount = ${get(own, "replicaCount")}` });
      }
    }
  }
  for (const component of expectHpa) {
    const deployment = deploymentOf(manifests, component);
    if (!deployment || !hpaFor(manifests, deployment)) {
      findings.push({ doc: "(render)", path: component, message: `expected a HorizontalPodAutoscaler for the ${component}` });
    }
  }
  return findings;
}

/**
 * The one workload allowed to run as root: a sandbox worker that starts its sessions as another
 * user (sandbox-worker.runAsUid), and then only with these capabilities added to none.
 */
const SANDBOX_ROOT_CAPABILITIES = new Set(["SETUID", "SETGID", "CHOWN", "KILL", "DAC_OVERRIDE", "FOWNER"]);

/** Whether a sandbox worker's pod runs as root to start its sessions as another user, with no more than that takes. */
function sandboxRunsAsOtherUser(m: Manifest, fail: (path: string, message: string) => void): boolean {
  if (get(m.value, "metadata", "labels", COMPONENT_LABEL) !== "sandbox-worker") return false;
  const pod = get(m.value, "spec", "template", "spec");
  if (get(pod, "securityContext", "runAsUser") !== 0) return false;
  const container = ((get(pod, "containers") as unknown[] | undefined) ?? [])[0];
  const add = get(container, "securityContext", "capabilities", "add");
  for (const capability of Array.isArray(add) ? add : []) {
    if (!SANDBOX_ROOT_CAPABILITIES.has(String(capability))) fail("spec.template.spec.containers[0].securityContext.capabilities.add", `${capability} is not needed to start sessions as another user`);
  }
  return true;
}

/** Pod security and probes of every workload (Deployments and Jobs). */
export function checkWorkloads(manifests: Manifest[]): Finding[] {
  const findings: Finding[] = [];
  for (const m of manifests.filter((d) => kindOf(d) === "Deployment" || kindOf(d) === "Job")) {
    const fail = (path: string, message: string) => findings.push({ doc: describe(m), path, message });
    const pod = get(m.value, "spec", "template", "spec");
    const podPath = "spec.template.spec";
    const rootSandbox = sandboxRunsAsOtherUser(m, fail);
    if (!rootSandbox && get(pod, "securityContext", "runAsNonRoot") !== true) fail(`${podPath}.securityContext.runAsNonRoot`, "must be true");
    if (get(pod, "securityContext", "seccompProfile", "type") !== "RuntimeDefault") fail(`${podPath}.securityContext.seccompProfile.type`, "must be RuntimeDefault");
    if (get(pod, "automountServiceAccountToken") !== false) fail(`${podPath}.automountServiceAccountToken`, "must be false");
    const volumes = (get(pod, "volumes") as unknown[] | undefined) ?? [];
    const containers = (get(pod, "containers") as unknown[] | undefined) ?? [];
    containers.forEach((container, i) => {
      const at = `${podPath}.containers[${i}]`;
      const sc = get(container, "securityContext");
      if (get(sc, "allowPrivilegeEscalation") !== false) fail(`${at}.securityContext.allowPrivilegeEscalation`, "must be false");
      if (get(sc, "readOnlyRootFilesystem") !== true) fail(`${at}.securityContext.readOnlyRootFilesystem`, "must be true");
      const drop = get(sc, "capabilities", "drop");
      if (!Array.isArray(drop) || !drop.includes("ALL")) fail(`${at}.securityContext.capabilities.drop`, "must include ALL");
      if (!rootSandbox && get(sc, "capabilities", "add") !== undefined) fail(`${at}.securityContext.capabilities.add`, "must be unset (only a sandbox worker starting sessions as another user adds any)");
      const tmp = ((get(container, "volumeMounts") as unknown[] | undefined) ?? []).find((v) => get(v, "mountPath") === "/tmp");
      const tmpVolume = tmp && volumes.find((v) => get(v, "name") === get(tmp, "name"));
      if (!tmpVolume || !isObject(get(tmpVolume, "emptyDir"))) fail(`${at}.volumeMounts`, "needs an emptyDir at /tmp (the root filesystem is read-only)");
      if (kindOf(m) === "Deployment") {
        if (get(container, "livenessProbe", "httpGet", "path") !== "/healthz") fail(`${at}.livenessProbe.httpGet.path`, "must be /healthz");
        if (get(container, "readinessProbe", "httpGet", "path") !== "/readyz") fail(`${at}.readinessProbe.httpGet.path`, "must be /readyz");
        if (!get(container, "resources", "requests")) fail(`${at}.resources.requests`, "must be set");
      }
    });
  }
  return findings;
}

function matches(selector: unknown, labels: unknown): boolean {
  if (!isObject(selector) || !isObject(labels) || Object.keys(selector).length === 0) return false;
  return Object.entries(selector).every(([key, value]) => labels[key] === value);
}

function podLabels(m: Manifest): unknown {
  return get(m.value, "spec", "template", "metadata", "labels");
}

function hookEvents(m: Manifest): string[] {
  const hook = get(m.value, "metadata", "annotations", "helm.sh/hook");
  return typeof hook === "string" ? hook.split(",").map((s) => s.trim()) : [];
}

function hookWeight(m: Manifest): number {
  return Number(get(m.value, "metadata", "annotations", "helm.sh/hook-weight") ?? 0);
}

/**
 * References between objects resolve: selectors select pods, targets exist, env refers to
 * rendered ConfigMaps/Secrets or to the existing Secret named in the values, and a hook Job
 * refers only to objects that exist when it runs (hooks with a lower weight, or external).
 */
export function checkReferences(manifests: Manifest[], values: Values): Finding[] {
  const findings: Finding[] = [];
  const named = (kind: string, name: unknown) => manifests.find((m) => kindOf(m) === kind && nameOf(m) === name);
  const deployments = manifests.filter((m) => kindOf(m) === "Deployment");
  const externalSecret = get(values, "secrets", "existingSecret");

  for (const m of manifests) {
    const fail = (path: string, message: string) => findings.push({ doc: describe(m), path, message });
    switch (kindOf(m)) {
      case "Service":
        if (!deployments.some((d) => matches(get(m.value, "spec", "selector"), podLabels(d)))) fail("spec.selector", "selects no Deployment's pods");
        break;
      case "PodDisruptionBudget":
        if (!deployments.some((d) => matches(get(m.value, "spec", "selector", "matchLabels"), podLabels(d)))) fail("spec.selector", "selects no Deployment's pods");
        break;
      case "HorizontalPodAutoscaler":
        if (!named("Deployment", get(m.value, "spec", "scaleTargetRef", "name"))) fail("spec.scaleTargetRef.name", "no such Deployment");
        break;
      case "ServiceMonitor": {
        const service = manifests.find((s) => kindOf(s) === "Service" && matches(get(m.value, "spec", "selector", "matchLabels"), get(s.value, "metadata", "labels")));
        if (!service) fail("spec.selector", "selects no Service");
        const ports = ((get(service?.value, "spec", "ports") as unknown[] | undefined) ?? []).map((p) => get(p, "name"));
        ((get(m.value, "spec", "endpoints") as unknown[] | undefined) ?? []).forEach((e, i) => {
          if (service && !ports.includes(get(e, "port"))) fail(`spec.endpoints[${i}].port`, `the Service has no port named ${get(e, "port")}`);
        });
        break;
      }
      case "Ingress":
        ((get(m.value, "spec", "rules") as unknown[] | undefined) ?? []).forEach((rule, r) =>
          ((get(rule, "http", "paths") as unknown[] | undefined) ?? []).forEach((p, i) => {
            const at = `spec.rules[${r}].http.paths[${i}].backend.service`;
            const service = named("Service", get(p, "backend", "service", "name"));
            if (!service) return fail(`${at}.name`, "no such Service");
            const port = get(p, "backend", "service", "port", "name");
            const ports = ((get(service.value, "spec", "ports") as unknown[] | undefined) ?? []).map((sp) => get(sp, "name"));
            if (!ports.includes(port)) fail(`${at}.port.name`, `the Service has no port named ${port}`);
          }),
        );
        break;
    }

    if (kindOf(m) !== "Deployment" && kindOf(m) !== "Job") continue;
    const events = hookEvents(m);
    const containers = (get(m.value, "spec", "template", "spec", "containers") as unknown[] | undefined) ?? [];
    const refs: { path: string; kind: string; name: unknown }[] = [];
    containers.forEach((c, i) => {
      const at = `spec.template.spec.containers[${i}]`;
      ((get(c, "envFrom") as unknown[] | undefined) ?? []).forEach((e, j) => {
        if (get(e, "configMapRef")) refs.push({ path: `${at}.envFrom[${j}].configMapRef.name`, kind: "ConfigMap", name: get(e, "configMapRef", "name") });
        if (get(e, "secretRef")) refs.push({ path: `${at}.envFrom[${j}].secretRef.name`, kind: "Secret", name: get(e, "secretRef", "name") });
      });
      ((get(c, "env") as unknown[] | undefined) ?? []).forEach((e, j) => {
        const secretRef = get(e, "valueFrom", "secretKeyRef");
        const configRef = get(e, "valueFrom", "configMapKeyRef");
        if (secretRef) refs.push({ path: `${at}.env[${j}].valueFrom.secretKeyRef.name`, kind: "Secret", name: get(secretRef, "name") });
        if (configRef) refs.push({ path: `${at}.env[${j}].valueFrom.configMapKeyRef.name`, kind: "ConfigMap", name: get(configRef, "name") });
      });
    });
    const serviceAccount = get(m.value, "spec", "template", "spec", "serviceAccountName");
    if (serviceAccount !== undefined && serviceAccount !== "default") {
      refs.push({ path: "spec.template.spec.serviceAccountName", kind: "ServiceAccount", name: serviceAccount });
    }
    for (const ref of refs) {
      const target = named(ref.kind, ref.name);
      const external = ref.kind === "Secret" && ref.name === externalSecret;
      const externalServiceAccount = ref.kind === "ServiceAccount" && !target && get(values, "serviceAccount", "create") === false;
      if (!target && !external && !externalServiceAccount) {
        fail(ref.path, `refers to ${ref.kind} ${ref.name}, which is neither rendered nor an existing object named in the values`);
        continue;
      }
      if (target && events.length > 0) {
        const targetEvents = hookEvents(target);
        const before = events.every((e) => targetEvents.includes(e)) && hookWeight(target) < hookWeight(m);
        if (!before) {
          fail(ref.path, `hook (${events.join(",")}) refers to ${ref.kind} ${ref.name}, which does not exist yet when the hook runs (make it a hook with a lower weight, or inline it)`);
        }
      }
    }
  }
  return findings;
}
