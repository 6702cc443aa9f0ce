{{/*
Names, labels and the environment of each component. Templates iterate over the components;
everything that differs between them is decided here, so the templates stay uniform.
*/}}

{{- define "agent-deployments.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "agent-deployments.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "agent-deployments.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* The seven long-running components, in a stable order. */}}
{{- define "agent-deployments.componentNames" -}}
gateway deployments vaults catalog scheduler runtime sandbox-worker
{{- end -}}

{{/* The components with a database of their own (mysql.databases; the migrations Job). The sandbox worker keeps none. */}}
{{- define "agent-deployments.databaseComponentNames" -}}
gateway deployments vaults catalog scheduler runtime
{{- end -}}

{{/* Object name of a component. Context: dict "root" $ "component" name. */}}
{{- define "agent-deployments.componentFullname" -}}
{{- printf "%s-%s" (include "agent-deployments.fullname" .root | trunc 50 | trimSuffix "-") .component -}}
{{- end -}}

{{/* Selector labels: stable for the life of a release (selectors are immutable). */}}
{{- define "agent-deployments.selectorLabels" -}}
app.kubernetes.io/name: {{ include "agent-deployments.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{/* Selects every pod of this release, whatever the component. Context: root. */}}
{{- define "agent-deployments.releaseSelectorLabels" -}}
app.kubernetes.io/name: {{ include "agent-deployments.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{/* Labels for every object. Context: dict "root" $ "component" name. */}}
{{- define "agent-deployments.labels" -}}
helm.sh/chart: {{ include "agent-deployments.chart" .root }}
{{ include "agent-deployments.selectorLabels" . }}
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/part-of: agent-deployments
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
{{- with .root.Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{- define "agent-deployments.image" -}}
{{- $tag := default .Chart.AppVersion .Values.image.tag -}}
{{- if .Values.image.digest -}}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest -}}
{{- else -}}
{{- printf "%s:%s" .Values.image.repository $tag -}}
{{- end -}}
{{- end -}}

{{- define "agent-deployments.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "agent-deployments.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{/* Name of the Secret holding the service secrets (chart-made or existing). */}}
{{- define "agent-deployments.secretName" -}}
{{- default (include "agent-deployments.fullname" .) .Values.secrets.existingSecret -}}
{{- end -}}

{{/* The components that serve /metrics: every one, each on its health port (the gateway's is not its public port). */}}
{{- define "agent-deployments.metricsComponentNames" -}}
gateway deployments vaults catalog scheduler runtime sandbox-worker
{{- end -}}

{{/* Port of tracing.otlpEndpoint: the URL's own, else the scheme's. Context: root. */}}
{{- define "agent-deployments.otlpPort" -}}
{{- $url := urlParse .Values.tracing.otlpEndpoint -}}
{{- $port := regexFind "[0-9]+$" (regexFind ":[0-9]+$" $url.host) -}}
{{- if $port -}}{{ $port }}{{- else if eq $url.scheme "https" -}}443{{- else -}}80{{- end -}}
{{- end -}}

{{/* Marks the gateway's metrics Service apart from its public one, which has the same component label. */}}
{{- define "agent-deployments.metricsServiceLabel" -}}
app.kubernetes.io/port: metrics
{{- end -}}

{{/* Name of the port /metrics is scraped on: the gateway's health port is a port of its own, `metrics`; the others serve it on `http`, their health port. */}}
{{- define "agent-deployments.metricsPortName" -}}
{{- if eq . "gateway" -}}metrics{{- else -}}http{{- end -}}
{{- end -}}

{{/* Components with an event outbox: they read OUTBOX_MAX_ATTEMPTS and OUTBOX_RETRY_BASE_MS. */}}
{{- define "agent-deployments.outboxComponentNames" -}}
deployments vaults catalog
{{- end -}}

{{/* Components that answer tenants' bus requests: they read TENANT_MAX_CONCURRENCY and TENANT_MAX_QUEUE. */}}
{{- define "agent-deployments.tenantLimitComponentNames" -}}
deployments vaults catalog scheduler runtime
{{- end -}}

{{/* Port a component listens on: the gateway's API port, the others' health port. */}}
{{- define "agent-deployments.port" -}}
{{- $c := index .root.Values .component -}}
{{- if eq .component "gateway" -}}{{ $c.port | int64 }}{{- else -}}{{ $c.healthPort | int64 }}{{- end -}}
{{- end -}}

{{/* An integer value as a decimal string (YAML numbers arrive as float64: 3.6e+06). */}}
{{- define "agent-deployments.int" -}}
{{- . | int64 | toString -}}
{{- end -}}

{{- define "agent-deployments.mysqlUrl" -}}
{{- $m := .Values.mysql -}}
{{- printf "mysql://%s@%s:%d" $m.user (required "mysql.host is required: the host name of the MySQL server" $m.host) ($m.port | int64) -}}
{{- end -}}

{{/*
Non-secret environment of a component, as a YAML map (ConfigMap data; inline env for the
migrations Job). Context: dict "root" $ "component" name; component "migrations" gets what
deploy/bin/migrate.ts reads: NODE_ENV, LOG_LEVEL, the MySQL settings, DATABASE_NAME_<SERVICE>.
*/}}
{{- define "agent-deployments.configEnv" -}}
{{- $v := .root.Values -}}
NODE_ENV: {{ $v.environment | quote }}
LOG_LEVEL: {{ $v.logLevel | quote }}
{{- if ne .component "migrations" }}
NATS_URL: {{ required "nats.url is required: the NATS server URL, e.g. nats://nats.messaging.svc:4222" $v.nats.url | quote }}
BUS_PREFIX: {{ $v.nats.busPrefix | quote }}
BUS_TIMEOUT_MS: {{ include "agent-deployments.int" $v.nats.busTimeoutMs | quote }}
SHUTDOWN_GRACE_MS: {{ include "agent-deployments.int" $v.shutdownGraceMs | quote }}
{{- with $v.tracing.otlpEndpoint }}
OTEL_EXPORTER_OTLP_ENDPOINT: {{ . | quote }}
OTEL_EXPORTER_OTLP_PROTOCOL: "http/json"
OTEL_TRACES_SAMPLER: {{ $v.tracing.sampler | quote }}
{{- if contains "traceidratio" $v.tracing.sampler }}
OTEL_TRACES_SAMPLER_ARG: {{ $v.tracing.samplerRatio | toString | quote }}
{{- end }}
{{- with $v.tracing.resourceAttributes }}
OTEL_RESOURCE_ATTRIBUTES: {{ . | quote }}
{{- end }}
{{- end }}
{{- if $v.nats.tls.existingSecret }}
NATS_TLS_CA_FILE: {{ printf "%s/ca.crt" (include "agent-deployments.natsTlsPath" .root) | quote }}
{{- if $v.nats.tls.clientCertificate }}
NATS_TLS_CERT_FILE: {{ printf "%s/tls.crt" (include "agent-deployments.natsTlsPath" .root) | quote }}
NATS_TLS_KEY_FILE: {{ printf "%s/tls.key" (include "agent-deployments.natsTlsPath" .root) | quote }}
{{- end }}
{{- end }}
{{- end }}
{{- $databaseComponents := include "agent-deployments.databaseComponentNames" .root | splitList " " }}
{{- if or (eq .component "migrations") (has .component $databaseComponents) }}
MYSQL_URL: {{ include "agent-deployments.mysqlUrl" .root | quote }}
MYSQL_POOL_SIZE: {{ include "agent-deployments.int" $v.mysql.poolSize | quote }}
MYSQL_ACQUIRE_TIMEOUT_MS: {{ include "agent-deployments.int" $v.mysql.acquireTimeoutMs | quote }}
MYSQL_QUEUE_LIMIT: {{ include "agent-deployments.int" $v.mysql.queueLimit | quote }}
{{- end }}
{{- if eq .component "migrations" }}
{{- range $service := $databaseComponents }}
DATABASE_NAME_{{ upper $service }}: {{ index $v.mysql.databases $service | quote }}
{{- end }}
{{- else if has .component $databaseComponents }}
DATABASE_NAME: {{ index $v.mysql.databases .component | quote }}
{{- end }}
{{- if or (eq .component "gateway") (eq .component "catalog") }}
FILE_MAX_BYTES: {{ include "agent-deployments.int" $v.fileMaxBytes | quote }}
{{- end }}
{{- if eq .component "gateway" }}
{{- $c := $v.gateway }}
PORT: {{ include "agent-deployments.int" $c.port | quote }}
HOST: {{ $c.host | quote }}
API_HEADER_PREFIX: {{ $c.apiHeaderPrefix | quote }}
ALLOW_DEV_KEY: {{ $c.allowDevKey | toString | quote }}
KEY_CACHE_TTL_MS: {{ include "agent-deployments.int" $c.keyCacheTtlMs | quote }}
MAX_BODY_BYTES: {{ include "agent-deployments.int" $c.maxBodyBytes | quote }}
MAX_HEADER_BYTES: {{ include "agent-deployments.int" $c.maxHeaderBytes | quote }}
MAX_HEADER_COUNT: {{ include "agent-deployments.int" $c.maxHeaderCount | quote }}
BODY_READ_TIMEOUT_MS: {{ include "agent-deployments.int" $c.bodyReadTimeoutMs | quote }}
BODY_READ_DEADLINE_MS: {{ include "agent-deployments.int" $c.bodyReadDeadlineMs | quote }}
SESSION_STREAMS_PER_WORKSPACE: {{ include "agent-deployments.int" $c.sessionStreamsPerWorkspace | quote }}
RATE_LIMIT_KEY_REQUESTS_PER_MINUTE: {{ include "agent-deployments.int" $c.rateLimitKeyRequestsPerMinute | quote }}
RATE_LIMIT_WORKSPACE_REQUESTS_PER_MINUTE: {{ include "agent-deployments.int" $c.rateLimitWorkspaceRequestsPerMinute | quote }}
RATE_LIMIT_FAILED_LOOKUPS_PER_MINUTE: {{ include "agent-deployments.int" $c.rateLimitFailedLookupsPerMinute | quote }}
RATE_LIMIT_SYNC_MS: {{ include "agent-deployments.int" $c.rateLimitSyncMs | quote }}
TRUSTED_PROXY_HOPS: {{ include "agent-deployments.int" $c.trustedProxyHops | quote }}
HEALTH_PORT: {{ include "agent-deployments.int" $c.healthPort | quote }}
HEALTH_HOST: {{ $c.healthHost | quote }}
{{- else if ne .component "migrations" }}
HEALTH_PORT: {{ include "agent-deployments.port" . | quote }}
HEALTH_HOST: {{ (index $v .component).healthHost | quote }}
{{- end }}
{{- if has .component (include "agent-deployments.outboxComponentNames" .root | splitList " ") }}
OUTBOX_MAX_ATTEMPTS: {{ include "agent-deployments.int" $v.outbox.maxAttempts | quote }}
OUTBOX_RETRY_BASE_MS: {{ include "agent-deployments.int" $v.outbox.retryBaseMs | quote }}
{{- end }}
{{- if has .component (include "agent-deployments.tenantLimitComponentNames" .root | splitList " ") }}
{{- with $v.tenantLimits.maxConcurrency }}
TENANT_MAX_CONCURRENCY: {{ include "agent-deployments.int" . | quote }}
{{- end }}
TENANT_MAX_QUEUE: {{ include "agent-deployments.int" $v.tenantLimits.maxQueue | quote }}
{{- end }}
{{- if eq .component "deployments" }}
ALLOW_HTTP_REPOSITORY_URLS: {{ $v.deployments.allowHttpRepositoryUrls | toString | quote }}
{{- end }}
{{- if has .component (list "catalog" "deployments" "vaults") }}
ALLOW_PRIVATE_MCP_URLS: {{ $v.allowPrivateMcpUrls | toString | quote }}
{{- end }}
{{- if or (eq .component "deployments") (eq .component "vaults") }}
{{- with $v.masterKeyId }}
MASTER_KEY_ID: {{ . | quote }}
{{- end }}
{{- end }}
{{- if eq .component "catalog" }}
{{- with $v.catalog.modelCatalogPath }}
MODEL_CATALOG_PATH: {{ . | quote }}
{{- end }}
{{- end }}
{{- if eq .component "vaults" }}
REWRAP_BATCH_SIZE: {{ include "agent-deployments.int" $v.vaults.rewrapBatchSize | quote }}
OAUTH_REFRESH_ALLOW_PRIVATE_HOSTS: {{ $v.vaults.oauthRefreshAllowPrivateHosts | join "," | quote }}
OAUTH_REFRESH_TIMEOUT_MS: {{ include "agent-deployments.int" $v.vaults.oauthRefreshTimeoutMs | quote }}
{{- end }}
{{- if eq .component "scheduler" }}
{{- $c := $v.scheduler }}
SCHEDULER_BATCH_SIZE: {{ include "agent-deployments.int" $c.batchSize | quote }}
SCHEDULER_POLL_MS: {{ include "agent-deployments.int" $c.pollMs | quote }}
SCHEDULER_LOOKAHEAD_MS: {{ include "agent-deployments.int" $c.lookaheadMs | quote }}
MISFIRE_WINDOW_MS: {{ include "agent-deployments.int" $c.misfireWindowMs | quote }}
JITTER_MAX_MS: {{ include "agent-deployments.int" $c.jitterMaxMs | quote }}
SCHEDULER_LEASE_MS: {{ include "agent-deployments.int" $c.leaseMs | quote }}
SCHEDULER_RETRY_MS: {{ include "agent-deployments.int" $c.retryMs | quote }}
SCHEDULER_CONSUMER_NAME: {{ $c.consumerName | quote }}
{{- end }}
{{- if eq .component "runtime" }}
{{- $c := $v.runtime }}
MODEL_API_BASE_URL: {{ $c.modelApiBaseUrl | quote }}
MODEL_MAX_TOKENS: {{ include "agent-deployments.int" $c.modelMaxTokens | quote }}
MODEL_TIMEOUT_MS: {{ include "agent-deployments.int" $c.modelTimeoutMs | quote }}
MODEL_MAX_RETRIES: {{ include "agent-deployments.int" $c.modelMaxRetries | quote }}
MODEL_RETRY_BASE_MS: {{ include "agent-deployments.int" $c.modelRetryBaseMs | quote }}
RUNTIME_COMPACTION_THRESHOLD: {{ $c.compactionThreshold | toString | quote }}
MCP_ALLOW_PRIVATE_HOSTS: {{ $c.mcpAllowPrivateHosts | join "," | quote }}
MCP_CONNECT_TIMEOUT_MS: {{ include "agent-deployments.int" $c.mcpConnectTimeoutMs | quote }}
MCP_CALL_TIMEOUT_MS: {{ include "agent-deployments.int" $c.mcpCallTimeoutMs | quote }}
RUNTIME_CONCURRENCY: {{ include "agent-deployments.int" $c.concurrency | quote }}
RUNTIME_LEASE_MS: {{ include "agent-deployments.int" $c.leaseMs | quote }}
RUNTIME_ACK_WAIT_MS: {{ include "agent-deployments.int" $c.ackWaitMs | quote }}
RUNTIME_CONSUMER_NAME: {{ $c.consumerName | quote }}
WORK_LEASE_TTL_SECONDS: {{ include "agent-deployments.int" $c.workLeaseTtlSeconds | quote }}
SESSIONS_TOKEN_TTL_SECONDS: {{ include "agent-deployments.int" $c.sessionsTokenTtlSeconds | quote }}
{{- end }}
{{- if eq .component "sandbox-worker" }}
{{ include "agent-deployments.sandboxConfigEnv" . }}
{{- end }}
{{- end -}}

{{/* Which secrets each component receives: only those it uses. */}}
{{- define "agent-deployments.secretItems" -}}
{{- $items := dict
  "gateway" "mysqlPassword cursorKey sessionsTokenKey"
  "deployments" "mysqlPassword masterKeys"
  "vaults" "mysqlPassword masterKeys"
  "catalog" "mysqlPassword"
  "scheduler" "mysqlPassword"
  "runtime" "mysqlPassword sessionsTokenKey modelApiKey"
  "sandbox-worker" ""
  "migrations" "mysqlPassword" -}}
{{- index $items . -}}
{{- end -}}

{{- define "agent-deployments.secretEnvName" -}}
{{- index (dict "mysqlPassword" "MYSQL_PASSWORD" "masterKeys" "MASTER_KEYS" "cursorKey" "CURSOR_KEY" "sessionsTokenKey" "SESSIONS_TOKEN_KEY" "modelApiKey" "MODEL_API_KEY") . -}}
{{- end -}}

{{/*
Secret environment variables of a component, as a YAML list of EnvVar. With
secrets.existingSecret every variable refers to it (key names from existingSecretKeys); else
to the chart's Secret (or secretName when given), skipping values left empty (development).
Context: dict "root" $ "component" name ["secretName" name].
*/}}
{{- define "agent-deployments.secretEnv" -}}
{{- $s := .root.Values.secrets -}}
{{- $secretName := default (include "agent-deployments.secretName" .root) .secretName -}}
{{- if ne .component "migrations" }}
{{- /* The component's own NATS identity: user name and password travel together or not at all. */}}
{{- $natsKey := printf "NATS_PASSWORD_%s" (upper .component | replace "-" "_") }}
{{- if or $s.existingSecret (index $s.natsPasswords .component) }}
- name: NATS_USER
  value: {{ include "agent-deployments.natsUser" . | quote }}
- name: NATS_PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ if $s.existingSecret }}{{ $s.existingSecret }}{{ else }}{{ $secretName }}{{ end }}
      key: {{ if $s.existingSecret }}{{ index $s.existingSecretKeys.natsPasswords .component }}{{ else }}{{ $natsKey }}{{ end }}
{{- end }}
{{- end }}
{{- range $item := include "agent-deployments.secretItems" .component | splitList " " | compact }}
{{- $envName := include "agent-deployments.secretEnvName" $item }}
{{- if $s.existingSecret }}
- name: {{ $envName }}
  valueFrom:
    secretKeyRef:
      name: {{ $s.existingSecret }}
      key: {{ index $s.existingSecretKeys $item }}
      {{- if eq $item "modelApiKey" }}
      {{- /* Optional: without it the runtime starts and stops each session that needs the model with a session.error. */}}
      optional: true
      {{- end }}
{{- else if index $s $item }}
- name: {{ $envName }}
  valueFrom:
    secretKeyRef:
      name: {{ $secretName }}
      key: {{ $envName }}
{{- end }}
{{- end }}
{{- end -}}

{{/* Data of the chart-made Secret (base64), keyed by environment variable name. */}}
{{- define "agent-deployments.secretData" -}}
{{- $s := .Values.secrets -}}
{{- range $item := list "mysqlPassword" "masterKeys" "cursorKey" "sessionsTokenKey" "modelApiKey" }}
{{- with index $s $item }}
{{ include "agent-deployments.secretEnvName" $item }}: {{ . | b64enc | quote }}
{{- end }}
{{- end }}
{{- range $component := include "agent-deployments.componentNames" . | splitList " " }}
{{- with index $s.natsPasswords $component }}
NATS_PASSWORD_{{ upper $component | replace "-" "_" }}: {{ . | b64enc | quote }}
{{- end }}
{{- end }}
{{- end -}}

{{/*
NATS user of a component: `<component>`, or `<nats.busPrefix>-<component>`, the names
`bun run nats:config -- --prefix <nats.busPrefix>` gives them (shared/bus/permissions.ts).
Context: dict "root" $ "component" name.
*/}}
{{- define "agent-deployments.natsUser" -}}
{{- if .root.Values.nats.busPrefix -}}{{ printf "%s-%s" .root.Values.nats.busPrefix .component }}{{- else -}}{{ .component }}{{- end -}}
{{- end -}}

{{/* Where the Secret nats.tls.existingSecret is mounted. Context: root. */}}
{{- define "agent-deployments.natsTlsPath" -}}
/etc/agents/nats-tls
{{- end -}}

{{/*
Pod-level settings shared by every Deployment and the migrations Job. Context: dict "root" $
"component" name. The sandbox worker adds its sessions' volumes, its RuntimeClass and its own
security (_sandbox.tpl).
*/}}
{{- define "agent-deployments.podCommon" -}}
{{- $root := .root -}}
{{- $sandbox := eq .component "sandbox-worker" -}}
automountServiceAccountToken: false
{{- with $root.Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- if and $sandbox (index $root.Values "sandbox-worker").runtimeClassName }}
runtimeClassName: {{ (index $root.Values "sandbox-worker").runtimeClassName }}
{{- end }}
{{- if $sandbox }}
{{- include "agent-deployments.sandboxPodFields" $root }}
{{- end }}
securityContext:
  {{- if $sandbox }}
  {{- include "agent-deployments.sandboxPodSecurityContext" $root | nindent 2 }}
  {{- else }}
  {{- toYaml $root.Values.podSecurityContext | nindent 2 }}
  {{- end }}
{{- with .root.Values.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with $root.Values.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with $root.Values.affinity }}
affinity:
  {{- toYaml . | nindent 2 }}
{{- end }}
volumes:
  - name: tmp
    emptyDir:
      sizeLimit: {{ $root.Values.tmpVolume.sizeLimit }}
  {{- if $sandbox }}
  - name: sandboxes
    emptyDir:
      sizeLimit: {{ (index $root.Values "sandbox-worker").scratchSizeLimit }}
  {{- /* Where the SDK's worker mounts a session's memory stores (the resource's mount_path, /mnt/memory/<name>): writable under a read-only root. */}}
  - name: memory
    emptyDir:
      sizeLimit: {{ (index $root.Values "sandbox-worker").scratchSizeLimit }}
  - name: packages
    emptyDir:
      sizeLimit: {{ (index $root.Values "sandbox-worker").packagesSizeLimit }}
  {{- end }}
  {{- with $root.Values.nats.tls.existingSecret }}
  - name: nats-tls
    secret:
      secretName: {{ . }}
      defaultMode: 0440
  {{- end }}
{{- end -}}

{{/* Container-level settings shared by every container. Context: dict "root" $ "component" name. */}}
{{- define "agent-deployments.containerCommon" -}}
{{- $root := .root -}}
{{- $sandbox := eq .component "sandbox-worker" -}}
image: {{ include "agent-deployments.image" $root }}
imagePullPolicy: {{ $root.Values.image.pullPolicy }}
securityContext:
  {{- if $sandbox }}
  {{- include "agent-deployments.sandboxContainerSecurityContext" $root | nindent 2 }}
  {{- else }}
  {{- toYaml $root.Values.containerSecurityContext | nindent 2 }}
  {{- end }}
volumeMounts:
  - name: tmp
    mountPath: /tmp
  {{- if $sandbox }}
  - name: sandboxes
    mountPath: {{ include "agent-deployments.sandboxRoot" $root }}
  - name: memory
    mountPath: /mnt/memory
  - name: packages
    mountPath: {{ include "agent-deployments.sandboxPackagesRoot" $root }}
  {{- end }}
  {{- if $root.Values.nats.tls.existingSecret }}
  - name: nats-tls
    mountPath: {{ include "agent-deployments.natsTlsPath" $root }}
    readOnly: true
  {{- end }}
{{- end -}}

{{- define "agent-deployments.probe" -}}
httpGet:
  path: {{ .path }}
  port: http
periodSeconds: {{ .probe.periodSeconds }}
timeoutSeconds: {{ .probe.timeoutSeconds }}
failureThreshold: {{ .probe.failureThreshold }}
{{- end -}}
