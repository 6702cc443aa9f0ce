/**
 * The part of the Prometheus Operator's ServiceMonitor (monitoring.coreos.com/v1) this chart
 * renders. kubernetes-models has no type for it: the typed check uses these interfaces, so an
 * unknown field name fails it as for the built-in kinds. Kept free of imports and runtime code
 * because the type check compiles it on its own.
 */

export interface ILabelSelector {
  matchLabels?: { [key: string]: string };
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

export interface IServiceMonitorEndpoint {
  port?: string;
  targetPort?: string | number;
  path?: string;
  scheme?: "http" | "https";
  interval?: string;
  scrapeTimeout?: string;
  honorLabels?: boolean;
  params?: { [key: string]: string[] };
  relabelings?: { [key: string]: unknown }[];
  metricRelabelings?: { [key: string]: unknown }[];
}

export interface IServiceMonitor {
  apiVersion: "monitoring.coreos.com/v1";
  kind: "ServiceMonitor";
  metadata: {
    name: string;
    namespace?: string;
    labels?: { [key: string]: string };
    annotations?: { [key: string]: string };
  };
  spec: {
    selector: ILabelSelector;
    namespaceSelector?: { any?: boolean; matchNames?: string[] };
    endpoints: IServiceMonitorEndpoint[];
    jobLabel?: string;
    targetLabels?: string[];
    podTargetLabels?: string[];
    sampleLimit?: number;
  };
}
