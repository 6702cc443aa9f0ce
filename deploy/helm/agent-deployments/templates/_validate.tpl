{{/*
Rules values.schema.json cannot express (they relate several values). Missing values use
`required` (helm lint reports them as INFO, helm install/template fail); contradictions use
`fail`. Every message names the value(s) to change.
*/}}
{{- define "agent-deployments.validate" -}}
{{- $v := .Values -}}
{{- $s := $v.secrets -}}
{{- $prod := eq $v.environment "production" -}}

{{- $_ := required "mysql.host is required: the host name of the MySQL server" $v.mysql.host -}}
{{- $_ := required "nats.url is required: the NATS server URL, e.g. nats://nats.messaging.svc:4222" $v.nats.url -}}

{{- if eq ($v.gateway.healthPort | int64) ($v.gateway.port | int64) -}}
  {{- fail (printf "gateway.healthPort (%d) must differ from gateway.port: /metrics stays off the public port" ($v.gateway.port | int64)) -}}
{{- end -}}

{{- $natsPasswordSet := false -}}
{{- range $name := include "agent-deployments.componentNames" . | splitList " " -}}
  {{- if index $s.natsPasswords $name -}}{{- $natsPasswordSet = true -}}{{- end -}}
{{- end -}}
{{- if $s.existingSecret -}}
  {{- if or $s.mysqlPassword $s.masterKeys $s.cursorKey $s.sessionsTokenKey $s.modelApiKey $natsPasswordSet -}}
    {{- fail "secrets: set either secrets.existingSecret or the values secrets.mysqlPassword/masterKeys/cursorKey/sessionsTokenKey/modelApiKey/natsPasswords, not both" -}}
  {{- end -}}
{{- else if $prod -}}
  {{- $_ := required "secrets.mysqlPassword is required when environment=production (or set secrets.existingSecret)" $s.mysqlPassword -}}
  {{- $_ := required "secrets.masterKeys is required when environment=production (or set secrets.existingSecret)" $s.masterKeys -}}
  {{- $_ := required "secrets.cursorKey is required when environment=production (or set secrets.existingSecret)" $s.cursorKey -}}
  {{- $_ := required "secrets.sessionsTokenKey is required when environment=production (or set secrets.existingSecret): the gateway and the runtime refuse to start without it" $s.sessionsTokenKey -}}
  {{- range $name := include "agent-deployments.componentNames" . | splitList " " -}}
    {{- $_ := required (printf "secrets.natsPasswords.%s is required when environment=production (or set secrets.existingSecret): each component connects to NATS as its own user" $name) (index $s.natsPasswords $name) -}}
  {{- end -}}
{{- end -}}

{{- if and $v.masterKeyId $s.masterKeys -}}
  {{- $kids := list -}}
  {{- range splitList "," $s.masterKeys -}}
    {{- $kids = append $kids (splitList ":" . | first | trim) -}}
  {{- end -}}
  {{- if not (has $v.masterKeyId $kids) -}}
    {{- fail (printf "masterKeyId %q is not one of the key ids in secrets.masterKeys (%s)" $v.masterKeyId (join ", " $kids)) -}}
  {{- end -}}
{{- end -}}

{{- if le ($v.scheduler.leaseMs | int64) (add ($v.scheduler.lookaheadMs | int64) ($v.nats.busTimeoutMs | int64)) -}}
  {{- fail (printf "scheduler.leaseMs (%d) must exceed scheduler.lookaheadMs + nats.busTimeoutMs (%d + %d): a live worker must keep its claim while a claimed schedule waits for its fire time and its reply" ($v.scheduler.leaseMs | int64) ($v.scheduler.lookaheadMs | int64) ($v.nats.busTimeoutMs | int64)) -}}
{{- end -}}

{{- if ge ($v.mysql.acquireTimeoutMs | int64) ($v.nats.busTimeoutMs | int64) -}}
  {{- fail (printf "mysql.acquireTimeoutMs (%d) must be below nats.busTimeoutMs (%d): a query still waiting for a database connection would reach its caller as a 504 timeout instead of 503 overloaded_error" ($v.mysql.acquireTimeoutMs | int64) ($v.nats.busTimeoutMs | int64)) -}}
{{- end -}}

{{- if and $v.gateway.allowDevKey $prod -}}
  {{- fail "gateway.allowDevKey=true is not allowed with environment=production: the gateway refuses to start with it" -}}
{{- end -}}

{{- $preStopMs := mul ($v.gateway.preStopSleepSeconds | int64) 1000 -}}
{{- if le (mul ($v.terminationGracePeriodSeconds | int64) 1000) (add ($v.shutdownGraceMs | int64) $preStopMs) -}}
  {{- fail (printf "terminationGracePeriodSeconds (%d s) must exceed shutdownGraceMs (%d ms) + gateway.preStopSleepSeconds (%d s), or pods are killed mid-drain" ($v.terminationGracePeriodSeconds | int64) ($v.shutdownGraceMs | int64) ($v.gateway.preStopSleepSeconds | int64)) -}}
{{- end -}}

{{- range $name := include "agent-deployments.componentNames" . | splitList " " -}}
  {{- $c := index $v $name -}}
  {{- if dig "autoscaling" "enabled" false $c -}}
    {{- if gt ($c.autoscaling.minReplicas | int64) ($c.autoscaling.maxReplicas | int64) -}}
      {{- fail (printf "%s.autoscaling.minReplicas (%d) must not exceed %s.autoscaling.maxReplicas (%d)" $name ($c.autoscaling.minReplicas | int64) $name ($c.autoscaling.maxReplicas | int64)) -}}
    {{- end -}}
    {{- if not (dig "resources" "requests" "cpu" "" $c) -}}
      {{- fail (printf "%s.autoscaling.enabled needs %s.resources.requests.cpu: CPU utilisation is measured against the request" $name $name) -}}
    {{- end -}}
  {{- end -}}
  {{- $pdb := $c.podDisruptionBudget -}}
  {{- if and $pdb.enabled (not (kindIs "invalid" $pdb.minAvailable)) (not (kindIs "invalid" $pdb.maxUnavailable)) -}}
    {{- fail (printf "%s.podDisruptionBudget: set minAvailable or maxUnavailable, not both (set the other to null)" $name) -}}
  {{- end -}}
  {{- if and $pdb.enabled (kindIs "invalid" $pdb.minAvailable) (kindIs "invalid" $pdb.maxUnavailable) -}}
    {{- fail (printf "%s.podDisruptionBudget.enabled needs minAvailable or maxUnavailable" $name) -}}
  {{- end -}}
{{- end -}}

{{- $sandbox := index $v "sandbox-worker" -}}
{{- if gt ($sandbox.maxLifetimeMs | int64) (mul ($v.runtime.sessionsTokenTtlSeconds | int64) 1000) -}}
  {{- fail (printf "sandbox-worker.maxLifetimeMs (%d) must not exceed runtime.sessionsTokenTtlSeconds (%d s): a session's token expires then, and its process could no longer reach the API" ($sandbox.maxLifetimeMs | int64) ($v.runtime.sessionsTokenTtlSeconds | int64)) -}}
{{- end -}}
{{- if and (kindIs "invalid" $sandbox.runAsUid) (not (kindIs "invalid" $sandbox.runAsGid)) -}}
  {{- fail "sandbox-worker.runAsGid needs sandbox-worker.runAsUid: the sessions run as another user only when both are known (the worker then runs as root)" -}}
{{- end -}}
{{- if include "agent-deployments.sandboxBubblewrap" . -}}
  {{- if and (not (kindIs "invalid" $sandbox.runAsUid)) (kindIs "invalid" $sandbox.uidBase) -}}
    {{- fail "sandbox-worker.runAsUid makes the worker root, and under isolation bubblewrap a root worker gives each session a uid of its own from sandbox-worker.uidBase: set uidBase (within the nodes' userNamespaces.idsPerPod), or leave runAsUid null" -}}
  {{- end -}}
  {{- with dig "limits" "memory" "" $sandbox.resources -}}
    {{- if le (include "agent-deployments.mebibytes" . | int64) ($sandbox.memoryMb | int64) -}}
      {{- fail (printf "sandbox-worker.resources.limits.memory (%v) must exceed sandbox-worker.memoryMb (%d MiB): where the worker cannot make a control group per session, the container's limit is what holds a session and its tmpfs, and the worker needs memory of its own" . ($sandbox.memoryMb | int64)) -}}
    {{- end -}}
  {{- end -}}
{{- end -}}

{{- if and $v.ingress.enabled (not $v.ingress.hosts) -}}
  {{- fail "ingress.enabled needs at least one entry in ingress.hosts" -}}
{{- end -}}
{{- end -}}
