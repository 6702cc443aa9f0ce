#!/usr/bin/env bun
/**
 * Makes the agent-deployments-stack chart renderable offline, to check its wiring in CI:
 * copies it to OUT/chart with only the local agent-deployments dependency (vendored from the
 * working tree; the network-only MySQL and NATS dependencies removed), and writes
 * OUT/subchart-values.yaml: the values agent-deployments receives there, for the validator.
 *
 *   bun deploy/helm/validate/prepare-stack.ts --stack DIR --chart DIR --out DIR
 */
import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { isObject } from "./manifests.ts";

const { values: args } = parseArgs({
  options: { stack: { type: "string" }, chart: { type: "string" }, out: { type: "string" } },
});
if (!args.stack || !args.chart || !args.out) {
  console.error("usage: prepare-stack.ts --stack DIR --chart DIR --out DIR");
  process.exit(2);
}

const target = join(args.out, "chart");
cpSync(args.stack, target, { recursive: true });
const chartFile = join(target, "Chart.yaml");
const chart = Bun.YAML.parse(await Bun.file(chartFile).text()) as Record<string, unknown>;
const dependencies = (chart.dependencies as { name: string }[] | undefined) ?? [];
if (!dependencies.some((d) => d.name === "agent-deployments")) {
  console.error(`${args.stack}/Chart.yaml does not depend on agent-deployments`);
  process.exit(1);
}
chart.dependencies = dependencies.filter((d) => d.name === "agent-deployments");
writeFileSync(chartFile, JSON.stringify(chart, null, 2)); // JSON is YAML
mkdirSync(join(target, "charts"), { recursive: true });
cpSync(args.chart, join(target, "charts", "agent-deployments"), { recursive: true });

const values = Bun.YAML.parse(await Bun.file(join(args.stack, "values.yaml")).text());
const subchartValues = isObject(values) ? values["agent-deployments"] : undefined;
if (!isObject(subchartValues)) {
  console.error(`${args.stack}/values.yaml has no agent-deployments section`);
  process.exit(1);
}
writeFileSync(join(args.out, "subchart-values.yaml"), JSON.stringify(subchartValues, null, 2));
