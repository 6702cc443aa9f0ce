#!/usr/bin/env bun
/**
 * Validates the output of `helm template` offline. Used by .ci/validate-chart.
 *
 *   bun deploy/helm/validate/validate-manifests.ts --manifests rendered.yaml \
 *     --chart deploy/helm/agent-deployments [--values extra.yaml ...] [--expect-hpa scheduler ...] \
 *     [--service-config] [--label production]
 *
 * --values: the values files given to helm, in order (the chart's values.yaml comes first by
 * itself); they tell the checks which secrets must not leak and which replica counts to expect.
 *
 * Checks: (a) kubernetes-models schema of every document, (b) typed TypeScript emit + tsc for
 * unknown/misplaced field names, (c) no secret in ConfigMaps or anywhere outside a Secret,
 * (d) gateway, scheduler and runtime scale independently (and --expect-hpa HPAs exist), plus security
 * context, probes, cross-object references and hook ordering, the sandbox workers' loosened
 * container security and their network boundary (sandbox-rules.ts); with --service-config, each
 * component's rendered environment against that service's own config schema and loader
 * (service-config.ts). Exit 1 with one line per problem,
 * naming the document and the field.
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { checkIndependentScaling, checkNoSecretsOutsideSecrets, checkReferences, checkWorkloads } from "./chart-rules.ts";
import { isObject, parseManifests, type Finding, type Manifest } from "./manifests.ts";
import { checkSandboxNetwork, checkSandboxSecurity } from "./sandbox-rules.ts";
import { checkSchemas } from "./schema-check.ts";
import { checkServiceConfig } from "./service-config.ts";
import { checkTypes } from "./type-check.ts";

type Values = Record<string, unknown>;

/** Helm's merge: maps merge key by key, anything else replaces, null deletes. */
export function mergeValues(base: Values, override: Values): Values {
  const merged: Values = { ...base };
  for (const [key, value] of Object.entries(override)) {
    if (value === null) delete merged[key];
    else if (isObject(value) && isObject(merged[key])) merged[key] = mergeValues(merged[key] as Values, value);
    else merged[key] = value;
  }
  return merged;
}

export async function loadValues(chartDir: string, files: string[]): Promise<Values> {
  let values: Values = {};
  for (const file of [join(chartDir, "values.yaml"), ...files]) {
    const parsed = Bun.YAML.parse(await Bun.file(file).text());
    if (parsed !== null && !isObject(parsed)) throw new Error(`${file}: values must be a mapping`);
    values = mergeValues(values, (parsed ?? {}) as Values);
  }
  return values;
}

export interface ValidationOptions {
  values: Values;
  expectHpa?: string[];
  /** Also check each component's environment against the service's config loader. */
  serviceConfig?: boolean;
}

/** Runs every check; returns all findings (empty when the render is valid). */
export async function validateManifests(manifests: Manifest[], options: ValidationOptions): Promise<Finding[]> {
  if (manifests.length === 0) return [{ doc: "(render)", path: "", message: "no documents" }];
  return [
    ...(await checkSchemas(manifests)),
    ...checkTypes(manifests),
    ...checkNoSecretsOutsideSecrets(manifests, options.values),
    ...checkIndependentScaling(manifests, options.values, options.expectHpa ?? []),
    ...checkWorkloads(manifests),
    ...checkSandboxSecurity(manifests),
    ...checkSandboxNetwork(manifests, options.values),
    ...checkReferences(manifests, options.values),
    ...(options.serviceConfig ? await checkServiceConfig(manifests) : []),
  ];
}

export function formatFinding(f: Finding): string {
  return `  ✗ ${f.doc}${f.path ? `: ${f.path}` : ""}: ${f.message}`;
}

async function main(): Promise<number> {
  const { values: args } = parseArgs({
    options: {
      manifests: { type: "string" },
      chart: { type: "string" },
      values: { type: "string", multiple: true, default: [] },
      "expect-hpa": { type: "string", multiple: true, default: [] },
      label: { type: "string", default: "" },
      "service-config": { type: "boolean", default: false },
    },
    strict: true,
  });
  if (!args.manifests || !args.chart) {
    console.error("usage: validate-manifests.ts --manifests FILE --chart DIR [--values FILE]... [--expect-hpa COMPONENT]... [--service-config] [--label TEXT]");
    return 2;
  }
  const label = args.label ? `[${args.label}] ` : "";
  const manifests = parseManifests(await Bun.file(args.manifests).text());
  const values = await loadValues(args.chart, args.values);
  const findings = await validateManifests(manifests, { values, expectHpa: args["expect-hpa"], serviceConfig: args["service-config"] });
  if (findings.length > 0) {
    console.error(`validate-manifests ${label}FAILED: ${findings.length} problem(s) in ${manifests.length} documents`);
    for (const f of findings) console.error(formatFinding(f));
    return 1;
  }
  const scope = `schemas, field names, secrets, scaling, security, references, sandbox boundary${args["service-config"] ? ", service config" : ""}`;
  console.log(`validate-manifests ${label}ok: ${manifests.length} documents (${scope})`);
  return 0;
}

if (import.meta.main) process.exit(await main());
