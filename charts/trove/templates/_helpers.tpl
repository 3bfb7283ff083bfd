{{/* Names: <release>-<component in kebab case>, e.g. trove-memory-api. */}}
{{- define "trove.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}{{ .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else -}}{{ printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" }}{{- end -}}
{{- end -}}

{{- define "trove.componentName" -}}
{{- printf "%s-%s" .root.Release.Name (.key | kebabcase) | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "trove.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
app.kubernetes.io/part-of: trove
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
{{- end -}}

{{/* Selector labels of one component; args: dict "root" $ "key" "memoryApi" */}}
{{- define "trove.selectorLabels" -}}
app.kubernetes.io/name: {{ .key | kebabcase }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
{{- end -}}

{{- define "trove.componentLabels" -}}
{{ include "trove.labels" .root }}
app.kubernetes.io/name: {{ .key | kebabcase }}
app.kubernetes.io/component: {{ .key | kebabcase }}
{{- end -}}

{{- define "trove.image" -}}
{{- $img := .root.Values.image -}}
{{- $tag := default .root.Chart.AppVersion $img.tag -}}
{{- if $img.registry -}}{{ printf "%s/trove-%s:%s" (trimSuffix "/" $img.registry) .image $tag }}
{{- else -}}{{ printf "trove-%s:%s" .image $tag }}{{- end -}}
{{- end -}}

{{- define "trove.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}{{ default (include "trove.fullname" .) .Values.serviceAccount.name }}
{{- else -}}{{ default "default" .Values.serviceAccount.name }}{{- end -}}
{{- end -}}

{{/* Whether a component runs inside another's pod (the embedder with mode: sidecar). */}}
{{- define "trove.isSidecar" -}}
{{- if and .c.enabled (eq (default "deployment" .c.mode) "sidecar") -}}true{{- end -}}
{{- end -}}

{{/* Secret holding one component's secret variables (created by the chart). */}}
{{- define "trove.secretName" -}}{{ include "trove.componentName" . }}-env{{- end -}}

{{/* gRPC address of a called component, as seen from the caller; args: dict root, key (callee), caller */}}
{{- define "trove.grpcAddress" -}}
{{- $c := index .root.Values.components .key -}}
{{- if not $c -}}{{ fail (printf "calls names component %q, which values.components does not define" .key) }}{{- end -}}
{{- if not $c.grpcPort -}}{{ fail (printf "calls names component %q, which has no grpcPort" .key) }}{{- end -}}
{{- if include "trove.isSidecar" (dict "c" $c) -}}{{ printf "dns:///127.0.0.1:%v" $c.grpcPort }}
{{- else -}}{{ printf "dns:///%s:%v" (include "trove.componentName" .) $c.grpcPort }}{{- end -}}
{{- end -}}

{{/* The Redis URL the apps get: the bundled Redis, redis.url, or nothing. */}}
{{- define "trove.redisUrl" -}}
{{- if .Values.redis.enabled -}}
{{- $auth := ternary (printf ":%s@" .Values.redis.auth.password) "" (ne .Values.redis.auth.password "") -}}
{{- printf "redis://%s%s-redis-master:6379" $auth .Release.Name -}}
{{- else -}}{{ .Values.redis.url }}{{- end -}}
{{- end -}}

{{- define "trove.qdrantUrl" -}}
{{- if .Values.qdrant.enabled -}}{{ printf "http://%s-qdrant:6333" .Release.Name }}
{{- else -}}{{ .Values.qdrant.url }}{{- end -}}
{{- end -}}

{{/* DATABASE_URL of a component using the bundled Postgres. */}}
{{- define "trove.bundledDatabaseUrl" -}}
{{- $pw := required (printf "components.%s: the bundled Postgres needs postgresql.auth.postgresPassword to make DATABASE_URL, or components.%s.existingSecret with a DATABASE_URL key" .key .key) .root.Values.postgresql.auth.postgresPassword -}}
{{- printf "postgres://postgres:%s@%s-postgresql:5432/%s" (urlquery $pw) .root.Release.Name (required (printf "components.%s.database names its database in the bundled Postgres" .key) .c.database) -}}
{{- end -}}

{{/* The variables one component's Secret holds. */}}
{{- define "trove.secretData" -}}
{{- $data := dict -}}
{{- range $k, $v := .c.secretEnv }}{{ $_ := set $data $k (toString $v) }}{{ end -}}
{{- /* REDIS_URL may hold a password: in the Secret, unless redis.existingSecret names one. */ -}}
{{- if and .c.useRedis (include "trove.redisUrl" .root) (not .root.Values.redis.existingSecret) (not (hasKey $data "REDIS_URL")) -}}
{{- $_ := set $data "REDIS_URL" (include "trove.redisUrl" .root) -}}
{{- end -}}
{{- /* With the bundled Postgres the URL is made from its password, unless the component's own Secret holds it. */ -}}
{{- if and .c.useDatabase .root.Values.postgresql.enabled (not .c.existingSecret) (not (hasKey $data "DATABASE_URL")) -}}
{{- $_ := set $data "DATABASE_URL" (include "trove.bundledDatabaseUrl" .) -}}
{{- end -}}
{{- toYaml $data -}}
{{- end -}}

{{/* envFrom of a component: its chart-made Secret and/or its existingSecret. */}}
{{- define "trove.envFrom" -}}
{{- $data := include "trove.secretData" . | fromYaml -}}
{{- if and .root.Values.secrets.create (gt (len $data) 0) }}
- secretRef:
    name: {{ include "trove.secretName" . }}
{{- end }}
{{- if .c.existingSecret }}
- secretRef:
    name: {{ .c.existingSecret }}
{{- end }}
{{- end -}}

{{/* A component's database must come from somewhere in a cluster (replicas cannot share an embedded one). */}}
{{- define "trove.checkDatabase" -}}
{{- if and .c.useDatabase (not .root.Values.postgresql.enabled) (not .c.existingSecret) (not (and .root.Values.secrets.create (hasKey .c.secretEnv "DATABASE_URL"))) -}}
{{- fail (printf "components.%s needs a database: set components.%s.secretEnv.DATABASE_URL, components.%s.existingSecret (with a DATABASE_URL key) or postgresql.enabled=true" .key .key .key) -}}
{{- end -}}
{{- end -}}

{{/* Environment of a component's container; args: dict root, key, c */}}
{{- define "trove.env" -}}
- name: PORT
  value: {{ .c.port | quote }}
{{- if .c.grpcPort }}
- name: GRPC_PORT
  value: {{ .c.grpcPort | quote }}
{{- end }}
{{- if and .c.useDatabase .c.migrate .root.Values.migrations.enabled }}
- name: MIGRATE_ON_START
  value: verify
{{- end }}
{{- if and .c.useRedis .root.Values.redis.existingSecret }}
- name: REDIS_URL
  valueFrom:
    secretKeyRef: { name: {{ .root.Values.redis.existingSecret }}, key: {{ .root.Values.redis.existingSecretKey | default "REDIS_URL" }} }
{{- end }}
{{- if and .c.useRedis (or .root.Values.redis.existingSecret (include "trove.redisUrl" .root)) }}
{{- if and (not .root.Values.redis.existingSecret) (not .root.Values.secrets.create) }}
{{- if contains "@" (include "trove.redisUrl" .root) }}
{{- fail "redis.url holds a password and secrets.create is false: put the URL in a Secret and name it in redis.existingSecret" }}
{{- end }}
- name: REDIS_URL
  value: {{ include "trove.redisUrl" .root | quote }}
{{- end }}
- name: REDIS_PREFIX
  value: {{ printf "%s:" .root.Release.Name | quote }}
{{- end }}
{{- if and .c.useQdrant (include "trove.qdrantUrl" .root) }}
- name: QDRANT_URL
  value: {{ include "trove.qdrantUrl" .root | quote }}
{{- end }}
{{- $root := .root }}
{{- range $var, $callee := .c.calls }}
{{- if (index $root.Values.components $callee).enabled }}
- name: {{ $var }}
  value: {{ include "trove.grpcAddress" (dict "root" $root "key" $callee) | quote }}
{{- end }}
{{- end }}
{{- if and .c.gpu .c.gpu.enabled .c.gpu.driverCapabilities }}
- name: NVIDIA_DRIVER_CAPABILITIES
  value: {{ .c.gpu.driverCapabilities | quote }}
{{- end }}
{{- range $k, $v := $root.Values.commonEnv }}
- name: {{ $k }}
  value: {{ $v | toString | quote }}
{{- end }}
{{- range $k, $v := .c.env }}
- name: {{ $k }}
  value: {{ $v | toString | quote }}
{{- end }}
{{- end -}}
