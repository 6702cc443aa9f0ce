/**
 * Rendered manifests (the output of `helm template`) as documents that know where they came
 * from, and the finding type every check reports in.
 */

export interface Manifest {
  /** Position in the render, from 0. */
  index: number;
  /** Template that produced it (`# Source:` line), or "?" when absent. */
  source: string;
  value: Record<string, unknown>;
}

/** One problem: which document, which field, what is wrong. */
export interface Finding {
  doc: string;
  path: string;
  message: string;
}

type Obj = Record<string, unknown>;

export function isObject(value: unknown): value is Obj {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Splits a multi-document YAML stream, keeping each document's `# Source:` template. */
export function parseManifests(text: string): Manifest[] {
  const manifests: Manifest[] = [];
  for (const chunk of text.split(/^---[ \t]*$/m)) {
    const source = /^# Source: (.+)$/m.exec(chunk)?.[1]?.trim() ?? "?";
    let value: unknown;
    try {
      value = Bun.YAML.parse(chunk);
    } catch (error) {
      throw new Error(`cannot parse the document from ${source}: ${(error as Error).message}`);
    }
    if (value === null || value === undefined) continue; // comment-only or empty chunk
    if (!isObject(value)) throw new Error(`the document from ${source} is not a mapping`);
    manifests.push({ index: manifests.length, source, value });
  }
  return manifests;
}

export function kindOf(m: Manifest): string {
  return String(m.value.kind ?? "?");
}

export function nameOf(m: Manifest): string {
  const metadata = m.value.metadata;
  return isObject(metadata) && typeof metadata.name === "string" ? metadata.name : "?";
}

/** How findings name a document: `Deployment/agents-gateway (agent-deployments/templates/deployment.yaml)`. */
export function describe(m: Manifest): string {
  return `${kindOf(m)}/${nameOf(m)} (${m.source})`;
}

/** Reads a nested value by dotted path segments; undefined when any step is missing. */
export function get(value: unknown, ...path: (string | number)[]): unknown {
  let current = value;
  for (const key of path) {
    if (Array.isArray(current) && typeof key === "number") current = current[key];
    else if (isObject(current) && typeof key === "string") current = current[key];
    else return undefined;
  }
  return current;
}

/** Visits every string leaf with its dotted path (`spec.template.spec.containers[0].image`). */
export function forEachString(value: unknown, visit: (path: string, text: string) => void, path = ""): void {
  if (typeof value === "string") visit(path, value);
  else if (Array.isArray(value)) value.forEach((item, i) => forEachString(item, visit, `${path}[${i}]`));
  else if (isObject(value)) {
    for (const [key, item] of Object.entries(value)) forEachString(item, visit, path ? `${path}.${key}` : key);
  }
}

/** Converts a JSON pointer (`/spec/replicas`) to the dotted form findings use. */
export function pointerToPath(pointer: string): string {
  return pointer
    .split("/")
    .slice(1)
    .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part), "");
}
