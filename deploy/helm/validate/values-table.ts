#!/usr/bin/env bun
/**
 * The chart README's values table, generated from values.schema.json (types, descriptions)
 * and values.yaml (defaults), so the documentation cannot drift from what the chart accepts.
 *
 *   bun deploy/helm/validate/values-table.ts --chart deploy/helm/agent-deployments --check   # CI
 *   bun deploy/helm/validate/values-table.ts --chart deploy/helm/agent-deployments --write   # after a values change
 *
 * The table lives between `<!-- values-table:start -->` and `<!-- values-table:end -->` in README.md.
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { get, isObject } from "./manifests.ts";

type Schema = Record<string, unknown>;

const START = "<!-- values-table:start -->";
const END = "<!-- values-table:end -->";

function resolveRef(root: Schema, node: Schema): Schema {
  const ref = node.$ref;
  if (typeof ref !== "string") return node;
  const target = get(root, ...ref.replace(/^#\//, "").split("/"));
  if (!isObject(target)) throw new Error(`unresolvable $ref ${ref}`);
  // Keywords beside $ref (here: the description) describe this use of the definition.
  return { ...resolveRef(root, target), ...Object.fromEntries(Object.entries(node).filter(([k]) => k !== "$ref")) };
}

function typeOf(root: Schema, node: Schema): string {
  if (Array.isArray(node.enum)) return node.enum.map((v) => JSON.stringify(v)).join(" \\| ");
  if (node.const !== undefined) return `${typeof node.const} (${JSON.stringify(node.const)})`;
  if (Array.isArray(node.oneOf)) return [...new Set(node.oneOf.map((n) => typeOf(root, resolveRef(root, n as Schema))))].join(" \\| ");
  if (Array.isArray(node.type)) return node.type.join(" \\| ");
  return typeof node.type === "string" ? node.type : "any";
}

function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\n/g, " ");
}

function formatDefault(value: unknown): string {
  if (value === undefined) return "";
  const json = JSON.stringify(value);
  return `\`${json.length > 80 ? `${json.slice(0, 77)}...` : json}\``.replace(/\|/g, "\\|");
}

/** One row per leaf; objects whose keys are fixed (additionalProperties: false) are expanded. */
export function valueRows(schema: Schema, defaults: unknown): string[] {
  const rows: string[] = [];
  const walk = (node: Schema, path: string, value: unknown) => {
    const resolved = resolveRef(schema, node);
    const properties = resolved.properties;
    if (resolved.additionalProperties === false && isObject(properties)) {
      for (const [key, child] of Object.entries(properties)) {
        walk(child as Schema, path ? `${path}.${key}` : key, isObject(value) ? value[key] : undefined);
      }
      return;
    }
    const description = typeof resolved.description === "string" ? resolved.description : "";
    rows.push(`| \`${path}\` | ${typeOf(schema, resolved)} | ${formatDefault(value)} | ${cell(description)} |`);
  };
  walk(schema, "", defaults);
  return rows;
}

export async function renderTable(chartDir: string): Promise<string> {
  const schema = (await Bun.file(join(chartDir, "values.schema.json")).json()) as Schema;
  const defaults = Bun.YAML.parse(await Bun.file(join(chartDir, "values.yaml")).text());
  return ["| Key | Type | Default | Description |", "|---|---|---|---|", ...valueRows(schema, defaults)].join("\n");
}

async function main(): Promise<number> {
  const { values: args } = parseArgs({
    options: { chart: { type: "string" }, check: { type: "boolean", default: false }, write: { type: "boolean", default: false } },
  });
  if (!args.chart || args.check === args.write) {
    console.error("usage: values-table.ts --chart DIR (--check | --write)");
    return 2;
  }
  const readmePath = join(args.chart, "README.md");
  const readme = await Bun.file(readmePath).text();
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) {
    console.error(`${readmePath}: missing the ${START} ... ${END} markers`);
    return 1;
  }
  const table = await renderTable(args.chart);
  const updated = `${readme.slice(0, start + START.length)}\n${table}\n${readme.slice(end)}`;
  if (args.write) {
    await Bun.write(readmePath, updated);
    return 0;
  }
  if (updated !== readme) {
    console.error(`${readmePath}: the values table is out of date with values.yaml/values.schema.json.`);
    console.error(`  Regenerate it: bun deploy/helm/validate/values-table.ts --chart ${args.chart} --write`);
    return 1;
  }
  console.log("values-table ok: README.md matches values.yaml and values.schema.json");
  return 0;
}

if (import.meta.main) process.exit(await main());
