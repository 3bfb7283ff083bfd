{{/* One component's container; args: dict root, key, c, portPrefix ("" for the pod's main container). */}}
{{- define "trove.container" -}}
{{- $p := .portPrefix | default "" -}}
- name: {{ .key | kebabcase }}
  image: {{ include "trove.image" (dict "root" .root "image" .c.image) }}
  imagePullPolicy: {{ .root.Values.image.pullPolicy }}
  ports:
    - name: {{ printf "%shttp" $p }}
      containerPort: {{ .c.port }}
      protocol: TCP
    {{- if .c.grpcPort }}
    - name: {{ printf "%sgrpc" $p }}
      containerPort: {{ .c.grpcPort }}
      protocol: TCP
    {{- end }}
  env:
    {{- include "trove.env" . | nindent 4 }}
  {{- with include "trove.envFrom" . }}
  envFrom:
    {{- . | trim | nindent 4 }}
  {{- end }}
  {{- $startup := .c.startupProbe }}
  {{- if and .c.gpu .c.gpu.enabled .c.gpu.startupProbe }}{{ $startup = .c.gpu.startupProbe }}{{ end }}
  {{- if $startup.enabled }}
  startupProbe:
    httpGet: { path: /livez, port: {{ .c.port }} }
    periodSeconds: {{ $startup.periodSeconds }}
    failureThreshold: {{ $startup.failureThreshold }}
  {{- end }}
  livenessProbe:
    httpGet: { path: /livez, port: {{ .c.port }} }
    periodSeconds: 10
    timeoutSeconds: 3
    failureThreshold: 3
  readinessProbe:
    httpGet: { path: /readyz, port: {{ .c.port }} }
    periodSeconds: 5
    timeoutSeconds: 3
    failureThreshold: 2
  resources:
    {{- $res := deepCopy (.c.resources | default dict) }}
    {{- if and .c.gpu .c.gpu.enabled }}
    {{- $limits := $res.limits | default dict }}
    {{- $_ := set $limits "nvidia.com/gpu" (.c.gpu.count | default 1) }}
    {{- $_ := set $res "limits" $limits }}
    {{- end }}
    {{- toYaml $res | nindent 4 }}
  securityContext:
    {{- toYaml .root.Values.containerSecurityContext | nindent 4 }}
  volumeMounts:
    - { name: tmp, mountPath: /tmp }
    {{- if .c.useDatabase }}
    - { name: data, mountPath: /data }
    {{- end }}
{{- end -}}
