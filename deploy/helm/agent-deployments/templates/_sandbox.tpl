{{/*
The sandbox worker's own parts: where its sessions' directories live, how it isolates them
(sandbox-worker.isolation), which user it runs as, its environment, and the pod and container
security that bubblewrap needs. _helpers.tpl includes these; README.md, "Sandbox workers", says why.
*/}}

{{/* Where the sandbox worker's sessions get their scratch directories (SANDBOX_ROOT): an emptyDir of its own. */}}
{{- define "agent-deployments.sandboxRoot" -}}
/sandboxes
{{- end -}}

{{/* The environments' package caches (SANDBOX_PACKAGES_ROOT): an emptyDir apart from the scratch one, so caches never eat a session's room. */}}
{{- define "agent-deployments.sandboxPackagesRoot" -}}
/sandbox-packages
{{- end -}}

{{/* The gateway the sandboxed sessions reach the API through: sandbox-worker.gatewayUrl, or this release's gateway Service. Context: root. */}}
{{- define "agent-deployments.sandboxGatewayUrl" -}}
{{- $gateway := include "agent-deployments.componentFullname" (dict "root" . "component" "gateway") -}}
{{- default (printf "http://%s.%s.svc:%d" $gateway .Release.Namespace (.Values.gateway.service.port | int64)) (index .Values "sandbox-worker").gatewayUrl -}}
{{- end -}}

{{/* True when every session runs in a bubblewrap sandbox (sandbox-worker.isolation). Context: root. */}}
{{- define "agent-deployments.sandboxBubblewrap" -}}
{{- if eq (index .Values "sandbox-worker").isolation "bubblewrap" }}true{{ end -}}
{{- end -}}

{{/*
True when the sandbox worker runs as root to start its sessions as other users: each session a
uid of its own (sandbox-worker.uidBase, under bubblewrap: root inside the pod's user namespace,
never on the node), or the one user of sandbox-worker.runAsUid (superseded). Context: root.
*/}}
{{- define "agent-deployments.sandboxRunsAsRoot" -}}
{{- $c := index .Values "sandbox-worker" -}}
{{- if or (not (kindIs "invalid" $c.runAsUid)) (and (include "agent-deployments.sandboxBubblewrap" .) (not (kindIs "invalid" $c.uidBase))) }}true{{ end -}}
{{- end -}}

{{/*
Capabilities of a sandbox worker that starts its sessions as other users: set their uid and
gid, hand them their directory, kill their processes, remove what they left.
*/}}
{{- define "agent-deployments.sandboxCapabilities" -}}
SETUID SETGID CHOWN KILL DAC_OVERRIDE FOWNER
{{- end -}}

{{/*
What the egress proxy never connects to (SANDBOX_EGRESS_DENY_HOSTS): the release's MySQL
(host:port), its NATS hosts (every port), every component's health/metrics Service (the gateway's
`-metrics` one: its public Service is how sessions reach the API), and sandbox-worker.egressDenyHosts.
The worker resolves each at start and refuses those addresses. Context: root.
*/}}
{{- define "agent-deployments.sandboxEgressDenyHosts" -}}
{{- $v := .Values -}}
{{- $hosts := list (printf "%s:%d" $v.mysql.host ($v.mysql.port | int64)) -}}
{{- range $url := splitList "," $v.nats.url -}}
{{- $hosts = append $hosts (regexReplaceAll ":[0-9]+$" (urlParse (trim $url)).host "") -}}
{{- end -}}
{{- range $component := include "agent-deployments.componentNames" . | splitList " " -}}
{{- $service := include "agent-deployments.componentFullname" (dict "root" $ "component" $component) -}}
{{- if eq $component "gateway" }}{{ $service = printf "%s-metrics" $service }}{{ end -}}
{{- $hosts = append $hosts (printf "%s.%s.svc" $service $.Release.Namespace) -}}
{{- end -}}
{{- concat $hosts (index $v "sandbox-worker").egressDenyHosts | uniq | join "," -}}
{{- end -}}

{{/* The sandbox worker's own settings, as ConfigMap data lines. Context: dict "root" $ "component" "sandbox-worker". */}}
{{- define "agent-deployments.sandboxConfigEnv" -}}
{{- $c := index .root.Values "sandbox-worker" -}}
SANDBOX_GATEWAY_URL: {{ include "agent-deployments.sandboxGatewayUrl" .root | quote }}
SANDBOX_ROOT: {{ include "agent-deployments.sandboxRoot" .root | quote }}
SANDBOX_MAX_LIFETIME_MS: {{ include "agent-deployments.int" $c.maxLifetimeMs | quote }}
SANDBOX_IDLE_MS: {{ include "agent-deployments.int" $c.idleMs | quote }}
SANDBOX_ISOLATION: {{ $c.isolation | quote }}
SANDBOX_MEMORY_MB: {{ include "agent-deployments.int" $c.memoryMb | quote }}
SANDBOX_PIDS_MAX: {{ include "agent-deployments.int" $c.pidsMax | quote }}
SANDBOX_DISK_MB: {{ include "agent-deployments.int" $c.diskMb | quote }}
{{- if not (kindIs "invalid" $c.uidBase) }}
SANDBOX_UID_BASE: {{ include "agent-deployments.int" $c.uidBase | quote }}
{{- end }}
SANDBOX_PACKAGES_ROOT: {{ include "agent-deployments.sandboxPackagesRoot" .root | quote }}
SANDBOX_PACKAGES_TIMEOUT_MS: {{ include "agent-deployments.int" $c.packagesTimeoutMs | quote }}
SANDBOX_EGRESS_DENY_HOSTS: {{ include "agent-deployments.sandboxEgressDenyHosts" .root | quote }}
SANDBOX_EGRESS_ALLOW_HOSTS: {{ $c.egressAllowHosts | join "," | quote }}
{{- if not (kindIs "invalid" $c.runAsUid) }}
SANDBOX_RUN_AS_UID: {{ include "agent-deployments.int" $c.runAsUid | quote }}
SANDBOX_RUN_AS_GID: {{ include "agent-deployments.int" (default $c.runAsUid $c.runAsGid) | quote }}
{{- end }}
{{- end -}}

{{/*
Pod-level additions of a sandbox worker under bubblewrap: a user namespace of the pod's own
(hostUsers: false). Kubernetes allows the unmasked /proc bwrap needs only with it, and root in
the pod (uidBase) is then an unprivileged uid on the node. Context: root.
*/}}
{{- define "agent-deployments.sandboxPodFields" -}}
{{- if include "agent-deployments.sandboxBubblewrap" . }}
hostUsers: false
{{- end }}
{{- end -}}

{{/* The sandbox worker's pod securityContext: podSecurityContext, as root when it starts sessions as other users. Context: root. */}}
{{- define "agent-deployments.sandboxPodSecurityContext" -}}
{{- if include "agent-deployments.sandboxRunsAsRoot" . }}
{{- toYaml (merge (dict "runAsNonRoot" false "runAsUser" 0 "runAsGroup" 0) (omit .Values.podSecurityContext "runAsNonRoot" "runAsUser" "runAsGroup")) }}
{{- else }}
{{- toYaml .Values.podSecurityContext }}
{{- end }}
{{- end -}}

{{/*
The sandbox worker's container securityContext: containerSecurityContext; as root with only the
capabilities that starting sessions as other users takes; under bubblewrap with an unmasked
/proc (a user namespace may mount a fresh proc only where no part of an existing one is hidden:
containers/bubblewrap#284) and the container's seccomp and AppArmor profiles from the values
(the runtimes' defaults refuse unshare and mount). Context: root.
*/}}
{{- define "agent-deployments.sandboxContainerSecurityContext" -}}
{{- $c := index .Values "sandbox-worker" -}}
{{- $sc := omit .Values.containerSecurityContext "runAsNonRoot" "runAsUser" "capabilities" -}}
{{- if include "agent-deployments.sandboxRunsAsRoot" . }}
{{- $_ := set $sc "runAsNonRoot" false }}
{{- $_ := set $sc "runAsUser" 0 }}
{{- $_ := set $sc "capabilities" (dict "drop" (list "ALL") "add" (include "agent-deployments.sandboxCapabilities" . | splitList " ")) }}
{{- else }}
{{- $sc = deepCopy .Values.containerSecurityContext }}
{{- end }}
{{- if include "agent-deployments.sandboxBubblewrap" . }}
{{- $_ := set $sc "procMount" "Unmasked" }}
{{- with $c.seccompProfile }}{{ $_ := set $sc "seccompProfile" . }}{{ end }}
{{- with $c.appArmorProfile }}{{ $_ := set $sc "appArmorProfile" . }}{{ end }}
{{- end }}
{{- toYaml $sc }}
{{- end -}}

{{/*
NetworkPolicyPeers for "the pods of this release but the sandbox workers": who may reach a
component's health (and metrics) port. The sessions run untrusted code; their workers have no
business with another component's /healthz or /metrics. Context: root.
*/}}
{{- define "agent-deployments.releasePeersButSandboxWorkers" -}}
- podSelector:
    matchLabels:
      {{- include "agent-deployments.releaseSelectorLabels" . | nindent 6 }}
    matchExpressions:
      - key: app.kubernetes.io/component
        operator: NotIn
        values: [sandbox-worker]
{{- end -}}

{{/* A Kubernetes quantity (512Mi, 3Gi, 2.5G, 3221225472) in whole mebibytes, rounded down. */}}
{{- define "agent-deployments.mebibytes" -}}
{{- if not (kindIs "string" .) -}}
{{- divf (float64 .) 1048576.0 | floor | int64 -}}
{{- else -}}
{{- $q := . -}}
{{- $units := dict "m" 0.001 "k" 1e3 "M" 1e6 "G" 1e9 "T" 1e12 "P" 1e15 "E" 1e18 "Ki" 1024.0 "Mi" 1048576.0 "Gi" 1073741824.0 "Ti" 1099511627776.0 "Pi" 1125899906842624.0 "Ei" 1152921504606846976.0 -}}
{{- $number := regexFind "^[0-9]+(\\.[0-9]+)?" $q -}}
{{- $unit := trimPrefix $number $q -}}
{{- $bytes := float64 $number -}}
{{- if $unit }}{{ $bytes = mulf $bytes (index $units $unit) }}{{ end -}}
{{- divf $bytes 1048576.0 | floor | int64 -}}
{{- end -}}
{{- end -}}
