{{/* Chart name, truncated to 63 characters (DNS label). */}}
{{- define "pilothouse.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
Name of the namespaced objects: the release name when it already contains the chart name
(`helm install pilothouse ...` gives `pilothouse`), otherwise `<release>-<chart>`.
*/}}
{{- define "pilothouse.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{/* Name of cluster-scoped objects: unique per release namespace as well. */}}
{{- define "pilothouse.clusterName" -}}
{{- printf "%s-%s" .Release.Namespace (include "pilothouse.fullname" .) }}
{{- end }}

{{/* ServiceAccount of a mapped role: pilothouse.roleAccount (dict "context" $ "role" "viewer"). */}}
{{- define "pilothouse.roleAccount" -}}
{{- printf "%s-%s" (include "pilothouse.fullname" .context | trunc 54 | trimSuffix "-") .role }}
{{- end }}

{{/* The Secret with `jwt-secret` and `admin-password`: `existingSecret`, or the one the chart generates. */}}
{{- define "pilothouse.secretName" -}}
{{- .Values.existingSecret | default (include "pilothouse.fullname" .) }}
{{- end }}

{{- define "pilothouse.selectorLabels" -}}
app.kubernetes.io/name: {{ include "pilothouse.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "pilothouse.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{ include "pilothouse.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: pilothouse
{{- end }}

{{/* The names of the CRDs shipped in crds/, read from the files so they cannot drift. */}}
{{- define "pilothouse.crdNames" -}}
{{- range $path, $_ := .Files.Glob "crds/*.yaml" }}
- {{ (fromYaml ($.Files.Get $path)).metadata.name }}
{{- end }}
{{- end }}

{{/*
The config file: the `config` values, completed with the keys the chart owns. Written with
hasKey/set rather than merge, which would turn a `false` of the values into the default's `true`.
Your keys win, except kubernetes.namespace (the release namespace), authorization.jwt.signing_key_file
(the chart's Secret, mounted; signing_key is removed) and metrics.public (the `metrics.public` value).
*/}}
{{- define "pilothouse.config" -}}
{{- $config := deepCopy (.Values.config | default dict) }}
{{- $kubernetes := get $config "kubernetes" | default dict }}
{{- $_ := set $kubernetes "namespace" .Release.Namespace }}
{{- $_ := set $config "kubernetes" $kubernetes }}
{{- $authorization := get $config "authorization" | default dict }}
{{- $jwt := get $authorization "jwt" | default dict }}
{{- /* The key is the mounted Secret's file (templates/deployment.yaml), never an environment variable. */}}
{{- $_ := unset $jwt "signing_key" }}
{{- $_ := set $jwt "signing_key_file" "/var/run/secrets/pilothouse/jwt-secret" }}
{{- $_ := set $authorization "jwt" $jwt }}
{{- $impersonation := get $authorization "impersonation" | default dict }}
{{- if not (hasKey $impersonation "enabled") }}
{{- $_ := set $impersonation "enabled" true }}
{{- end }}
{{- $mappings := get $impersonation "mappings" | default dict }}
{{- range $role := list "viewer" "user" "admin" }}
{{- if not (hasKey $mappings $role) }}
{{- $_ := set $mappings $role (printf "system:serviceaccount:%s:%s" $.Release.Namespace (include "pilothouse.roleAccount" (dict "context" $ "role" $role))) }}
{{- end }}
{{- end }}
{{- $_ := set $impersonation "mappings" $mappings }}
{{- $_ := set $authorization "impersonation" $impersonation }}
{{- $_ := set $config "authorization" $authorization }}
{{- /* The Service's DNS names pass the Host check (ADR 0027); probes and Prometheus use the pod IP, always allowed. */}}
{{- $server := get $config "server" | default dict }}
{{- $name := include "pilothouse.fullname" . }}
{{- $serviceNames := list $name (printf "%s.%s" $name .Release.Namespace) (printf "%s.%s.svc" $name .Release.Namespace) (printf "%s.%s.svc.cluster.local" $name .Release.Namespace) }}
{{- $_ := set $server "allowed_hosts" (concat (get $server "allowed_hosts" | default list) $serviceNames | uniq) }}
{{- $_ := set $config "server" $server }}
{{- if .Values.tools.bash.enabled }}
{{- $tools := get $config "tools" | default dict }}
{{- $bash := get $tools "bash" | default dict }}
{{- $_ := set $bash "enabled" true }}
{{- $_ := set $tools "bash" $bash }}
{{- $_ := set $config "tools" $tools }}
{{- end }}
{{- if .Values.database.existingSecret }}
{{- $database := get $config "database" | default dict }}
{{- $_ := unset $database "url" }}
{{- $_ := set $database "url_file" "/var/run/secrets/pilothouse-database/url" }}
{{- $_ := set $config "database" $database }}
{{- end }}
{{- $metrics := get $config "metrics" | default dict }}
{{- $_ := set $metrics "public" .Values.metrics.public }}
{{- $_ := set $config "metrics" $metrics }}
{{- toYaml $config }}
{{- end }}
