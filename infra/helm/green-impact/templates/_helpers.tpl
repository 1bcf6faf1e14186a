{{/* Labels every object carries. */}}
{{- define "green-impact.labels" -}}
app.kubernetes.io/part-of: green-impact
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/instance: {{ .Release.Name }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
{{- end -}}

{{/* The image of one workload: (dict "root" $ "name" "identity"). */}}
{{- define "green-impact.image" -}}
{{- $img := .root.Values.image -}}
{{- $prefix := ternary "" (printf "%s/" $img.registry) (empty $img.registry) -}}
{{- printf "%s%s/%s:%s" $prefix $img.repository .name (default .root.Chart.AppVersion $img.tag) -}}
{{- end -}}

{{/* Pod-level security context (restricted Pod Security Standard). */}}
{{- define "green-impact.podSecurityContext" -}}
runAsNonRoot: true
runAsUser: {{ .Values.securityContext.runAsUser | int64 }}
runAsGroup: {{ .Values.securityContext.runAsGroup | int64 }}
fsGroup: {{ .Values.securityContext.fsGroup | int64 }}
seccompProfile:
  type: RuntimeDefault
{{- end -}}

{{/* Container-level security context: read-only root, nothing to escalate to. */}}
{{- define "green-impact.containerSecurityContext" -}}
runAsNonRoot: true
allowPrivilegeEscalation: false
privileged: false
readOnlyRootFilesystem: true
capabilities:
  drop:
    - ALL
seccompProfile:
  type: RuntimeDefault
{{- end -}}
