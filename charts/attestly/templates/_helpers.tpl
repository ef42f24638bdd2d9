{{/* Chart name. */}}
{{- define "attestly.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Full name: release-chart, unless the release name already holds the chart name. */}}
{{- define "attestly.fullname" -}}
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

{{- define "attestly.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "attestly.selectorLabels" -}}
app.kubernetes.io/name: {{ include "attestly.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "attestly.labels" -}}
helm.sh/chart: {{ include "attestly.chart" . }}
{{ include "attestly.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: attestly
{{- end -}}

{{- define "attestly.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "attestly.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{- define "attestly.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) -}}
{{- end -}}

{{- define "attestly.postgres" -}}
{{- eq .Values.database.mode "postgres" -}}
{{- end -}}

{{/* The public URL: configured, or https://<first ingress host>. */}}
{{- define "attestly.publicUrl" -}}
{{- if .Values.publicUrl -}}
{{- .Values.publicUrl | trimSuffix "/" -}}
{{- else if and .Values.ingress.enabled .Values.ingress.hosts -}}
{{- printf "https://%s" (first .Values.ingress.hosts).host -}}
{{- else -}}
{{- fail "set publicUrl (the URL users reach Attestly at; the OpenID Connect issuer is <publicUrl>/oauth2), or enable the ingress with a host" -}}
{{- end -}}
{{- end -}}

{{/* Name and key of the Secret holding each secret value (the chart's own unless an existing one is named). */}}
{{- define "attestly.secretName" -}}
{{- include "attestly.fullname" . -}}
{{- end -}}

{{- define "attestly.masterKeySecret" -}}
{{- default (include "attestly.secretName" .) .Values.masterKey.existingSecret -}}
{{- end -}}

{{- define "attestly.masterKeySecretKey" -}}
{{- if .Values.masterKey.existingSecret -}}{{ .Values.masterKey.existingSecretKey }}{{- else -}}master-key{{- end -}}
{{- end -}}

{{- define "attestly.databaseSecret" -}}
{{- default (include "attestly.secretName" .) .Values.database.postgres.existingSecret -}}
{{- end -}}

{{- define "attestly.databaseSecretKey" -}}
{{- if .Values.database.postgres.existingSecret -}}{{ .Values.database.postgres.existingSecretKey }}{{- else -}}database-url{{- end -}}
{{- end -}}

{{/* Whether /metrics gets a token: given, in an existing Secret, or generated for the ServiceMonitor. */}}
{{- define "attestly.metricsEnabled" -}}
{{- if or .Values.metrics.token .Values.metrics.existingSecret .Values.metrics.serviceMonitor.enabled -}}true{{- end -}}
{{- end -}}

{{- define "attestly.metricsSecret" -}}
{{- default (include "attestly.secretName" .) .Values.metrics.existingSecret -}}
{{- end -}}

{{- define "attestly.metricsSecretKey" -}}
{{- if .Values.metrics.existingSecret -}}{{ .Values.metrics.existingSecretKey }}{{- else -}}metrics-token{{- end -}}
{{- end -}}

{{/*
Checks that stop a rendering that could not work, with the reason. Included by the Deployment.
SQLite is an embedded database in one file on one volume: a second pod would either fail to mount the
ReadWriteOnce volume or, on a shared one, write the same file from two hosts (SQLite's locking does not hold over
network file systems), so SQLite mode runs exactly one replica and no autoscaler.
*/}}
{{- define "attestly.validate" -}}
{{- $mode := .Values.database.mode -}}
{{- if not (has $mode (list "sqlite" "postgres")) -}}
{{- fail (printf "database.mode must be sqlite or postgres, not %q" $mode) -}}
{{- end -}}
{{- if eq $mode "sqlite" -}}
{{- if gt (int .Values.replicaCount) 1 -}}
{{- fail (printf "replicaCount is %d but database.mode is sqlite: SQLite is one database file on one ReadWriteOnce volume, which only one pod can mount and write safely. Set replicaCount: 1, or set database.mode: postgres (with database.postgres.url or existingSecret) to run several replicas." (int .Values.replicaCount)) -}}
{{- end -}}
{{- if .Values.autoscaling.enabled -}}
{{- fail "autoscaling.enabled needs database.mode: postgres: in SQLite mode the single pod owns the database file and cannot be scaled out" -}}
{{- end -}}
{{- else -}}
{{- if and (not .Values.database.postgres.url) (not .Values.database.postgres.existingSecret) -}}
{{- fail "database.mode is postgres: set database.postgres.url or database.postgres.existingSecret" -}}
{{- end -}}
{{- end -}}
{{- if and .Values.masterKey.value (not (regexMatch "^[0-9a-fA-F]{64}$" .Values.masterKey.value)) -}}
{{- fail "masterKey.value must be 64 hex characters (openssl rand -hex 32)" -}}
{{- end -}}
{{- end -}}
