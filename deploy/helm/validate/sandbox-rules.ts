/**
 * What the chart must keep around the sandbox workers, whose sessions run untrusted tool code
 * (issue 27): (1) the loosened container security bubblewrap needs (an unmasked /proc, a seccomp
 * or AppArmor profile other than the runtime's default) only on a sandbox worker, and only in a
 * user namespace of its pod; (2) no NetworkPolicy admits a sandbox worker to another component's
 * health or metrics port, and the sandbox workers' egress reaches neither MySQL, nor a component's
 * health port, nor the private ranges. Each returns findings; none throws.
 */
import { describe, get, isObject, kindOf, type Finding, type Manifest } from "./manifests.ts";

type Values = Record<string, unknown>;
type Labels = Record<string, string>;

const COMPONENT_LABEL = "app.kubernetes.io/component";
const SANDBOX = "sandbox-worker";
const COMPONENTS = ["gateway", "deployments", "vaults", "catalog", "scheduler", "runtime", SANDBOX];

const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** (1) Unmasked /proc, and seccomp or AppArmor other than the runtime's default, only where bubblewrap runs. */
export function checkSandboxSecurity(manifests: Manifest[]): Finding[] {
  const findings: Finding[] = [];
  for (const m of manifests.filter((d) => kindOf(d) === "Deployment" || kindOf(d) === "Job")) {
    const pod = get(m.value, "spec", "template", "spec");
    const bubblewrapPod = get(m.value, "metadata", "labels", COMPONENT_LABEL) === SANDBOX && get(pod, "hostUsers") === false;
    const why = "only a sandbox worker running bubblewrap in a user namespace of its pod (hostUsers: false) loosens it";
    list(get(pod, "containers")).forEach((container, i) => {
      const at = `spec.template.spec.containers[${i}].securityContext`;
      const fail = (path: string, message: string) => findings.push({ doc: describe(m), path: `${at}.${path}`, message });
      const procMount = get(container, "securityContext", "procMount");
      if (procMount !== undefined && procMount !== "Default" && !bubblewrapPod) fail("procMount", `must be unset or Default: ${why}`);
      for (const profile of ["seccompProfile", "appArmorProfile"]) {
        const type = get(container, "securityContext", profile, "type");
        if (type !== undefined && type !== "RuntimeDefault" && !bubblewrapPod) fail(`${profile}.type`, `must be unset or RuntimeDefault: ${why}`);
      }
    });
  }
  return findings;
}

function selects(selector: unknown, labels: Labels): boolean {
  if (!isObject(selector)) return false;
  const matchLabels = isObject(selector.matchLabels) ? selector.matchLabels : {};
  if (!Object.entries(matchLabels).every(([key, value]) => labels[key] === value)) return false;
  return list(selector.matchExpressions).every((e) => {
    const key = String(get(e, "key"));
    const values = list(get(e, "values")).map(String);
    switch (get(e, "operator")) {
      case "In":
        return key in labels && values.includes(labels[key]!);
      case "NotIn":
        return !(key in labels) || !values.includes(labels[key]!);
      case "Exists":
        return key in labels;
      case "DoesNotExist":
        return !(key in labels);
      default:
        return false;
    }
  });
}

function podLabelsOf(manifests: Manifest[], component: string): Labels | undefined {
  const deployment = manifests.find((m) => kindOf(m) === "Deployment" && get(m.value, "metadata", "labels", COMPONENT_LABEL) === component);
  const labels = get(deployment?.value, "spec", "template", "metadata", "labels");
  return isObject(labels) ? (labels as Labels) : undefined;
}

const PRIVATE_V4 = ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "169.254.0.0/16"];
const PRIVATE_V6 = ["fc00::/7", "fe80::/10"];

/** (2) The sandbox workers reach no component's health port and no database; nothing admits them to one. */
export function checkSandboxNetwork(manifests: Manifest[], values: Values): Finding[] {
  if (get(values, "networkPolicy", "enabled") !== true) return [];
  const findings: Finding[] = [];
  const sandboxPod = podLabelsOf(manifests, SANDBOX);
  if (!sandboxPod) return [{ doc: "(render)", path: SANDBOX, message: "no Deployment for the sandbox-worker" }];
  const policies = manifests.filter((m) => kindOf(m) === "NetworkPolicy");

  // Ingress: a health or metrics port (every component's `http` but the gateway's, whose is `metrics`) admits no sandbox worker.
  for (const policy of policies) {
    const component = get(policy.value, "spec", "podSelector", "matchLabels", COMPONENT_LABEL);
    list(get(policy.value, "spec", "ingress")).forEach((rule, r) => {
      const ports = list(get(rule, "ports")).map((p) => get(p, "port"));
      const health = component === "gateway" ? ports.includes("metrics") : component !== undefined;
      if (!health) return;
      const from = get(rule, "from");
      const admits = !Array.isArray(from) || from.some((peer) => get(peer, "namespaceSelector") === undefined && selects(get(peer, "podSelector"), sandboxPod));
      if (admits) findings.push({ doc: describe(policy), path: `spec.ingress[${r}].from`, message: `admits the sandbox workers to the ${component} health/metrics port` });
    });
  }

  // Egress: only when the sandbox workers have their own policy (networkPolicy.sandboxWorker.restrictEgress).
  if (get(values, "networkPolicy", "sandboxWorker", "restrictEgress") !== true) return findings;
  const egress = policies.filter((p) => list(get(p.value, "spec", "policyTypes")).includes("Egress") && selects(get(p.value, "spec", "podSelector"), sandboxPod));
  if (!egress.some((p) => get(p.value, "spec", "podSelector", "matchLabels", COMPONENT_LABEL) === SANDBOX)) {
    findings.push({ doc: "(render)", path: "NetworkPolicy", message: "networkPolicy.sandboxWorker.restrictEgress but no egress policy of the sandbox workers' own" });
  }
  const closedPorts = new Map<unknown, string>([[get(values, "mysql", "port"), "MySQL (mysql.port)"], ["metrics", "the gateway's metrics port"]]);
  for (const component of COMPONENTS) {
    closedPorts.set(get(values, component, "healthPort"), `the ${component}'s health port`);
  }
  const releasePods = COMPONENTS.map((component) => [component, podLabelsOf(manifests, component) ?? {}] as const);
  for (const policy of egress) {
    list(get(policy.value, "spec", "egress")).forEach((rule, r) => {
      const fail = (message: string) => findings.push({ doc: describe(policy), path: `spec.egress[${r}]`, message: `lets the sandbox workers reach ${message}` });
      const ports = list(get(rule, "ports")).map((p) => get(p, "port"));
      const to = get(rule, "to");
      if (!Array.isArray(to) && ports.length === 0) return fail("every address on every port");
      for (const port of ports) if (closedPorts.has(port)) fail(closedPorts.get(port)!);
      for (const peer of list(to)) {
        // A pod peer in this namespace: only the gateway, and only its API port.
        if (get(peer, "podSelector") !== undefined && get(peer, "namespaceSelector") === undefined) {
          for (const [component, labels] of releasePods) {
            if (!selects(get(peer, "podSelector"), labels)) continue;
            if (component !== "gateway" || ports.length === 0 || ports.some((p) => p !== "http")) fail(`the ${component}'s pods${component === "gateway" ? " beyond its API port" : ""}`);
          }
        }
        const cidr = get(peer, "ipBlock", "cidr");
        if (cidr === undefined) continue;
        const except = list(get(peer, "ipBlock", "except")).map(String);
        const needed = String(cidr).includes(":") ? PRIVATE_V6 : PRIVATE_V4;
        const wide = String(cidr).endsWith("/0");
        const open = needed.filter((range) => !except.includes(range));
        if (wide && open.length > 0) fail(`${open.join(", ")} through ${cidr} (add them to networkPolicy.sandboxWorker.internet.except)`);
      }
    });
  }
  return findings;
}
