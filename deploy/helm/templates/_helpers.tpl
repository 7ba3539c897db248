{{/*
Names, labels and the effective settings every template shares. The shared
Deployment and Service of an app are in _app.tpl; each component's file only
names its component.
*/}}

{{- define "vault.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "vault.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 50 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 50 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 50 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{/* A component's resource name: <fullname>-<component>. dict: root, component */}}
{{- define "vault.componentName" -}}
{{- printf "%s-%s" (include "vault.fullname" .root) .component | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Labels of every object of the release. dict: root, component */}}
{{- define "vault.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{ include "vault.selectorLabels" . }}
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
app.kubernetes.io/part-of: vault
{{- end }}

{{/* dict: root, component */}}
{{- define "vault.selectorLabels" -}}
{{ include "vault.releaseLabels" .root }}
app.kubernetes.io/component: {{ .component }}
{{- end }}

{{/* Every pod of this release, whatever its component (the NetworkPolicies' default deny). */}}
{{- define "vault.releaseLabels" -}}
app.kubernetes.io/name: {{ include "vault.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/* Where an app's image runs (its WORKDIR, the Dockerfile's): the app's folder, laid out as in the repository (docs/adr/0020). The app, e.g. gateway or audit-svc. */}}
{{- define "vault.appFolder" -}}
/app/apps/{{ . }}
{{- end }}

{{/* <registry>/vault-<app>:<tag>. dict: root, component */}}
{{- define "vault.image" -}}
{{- printf "%s/vault-%s:%s" (.root.Values.image.registry | trimSuffix "/") .component (.root.Values.image.tag | default .root.Chart.AppVersion) }}
{{- end }}

{{/* The services, by their key in .Values.services; each is the app <key>-svc. */}}
{{- define "vault.serviceKeys" -}}
auth planner journal media audit
{{- end }}

{{/* The Secret the trial generates. */}}
{{- define "vault.trialSecretName" -}}
{{- printf "%s-trial" (include "vault.fullname" .) }}
{{- end }}

{{/* The Secret a reference reads: its own name, else secrets.existingSecret, else the trial's. dict: root, ref */}}
{{- define "vault.secretName" -}}
{{- if .ref.name }}
{{- .ref.name }}
{{- else if .root.Values.secrets.existingSecret }}
{{- .root.Values.secrets.existingSecret }}
{{- else }}
{{- include "vault.trialSecretName" .root }}
{{- end }}
{{- end }}

{{/* One variable from a Secret. dict: root, env, ref */}}
{{- define "vault.secretEnv" -}}
- name: {{ .env }}
  valueFrom:
    secretKeyRef:
      name: {{ include "vault.secretName" . }}
      key: {{ .ref.key }}
{{- end }}

{{/*
Where a service reads its DATABASE_URL, as YAML (fromYaml it). The trial's
own Secret holds one URL per service, each with that service's role
(docs/adr/0008): <SERVICE>_DATABASE_URL. Otherwise secrets.databaseUrl.<service>.
dict: root, service
*/}}
{{- define "vault.databaseUrlRef" -}}
{{- $ref := index .root.Values.secrets.databaseUrl .service }}
{{- if and .root.Values.trial.enabled (not $ref.name) }}
{{- toYaml (dict "name" "" "key" (printf "%s_DATABASE_URL" (upper .service))) }}
{{- else }}
{{- toYaml $ref }}
{{- end }}
{{- end }}

{{/* Where the apps reach NATS (when not from a Secret). */}}
{{- define "vault.natsUrl" -}}
{{- if .Values.nats.url }}
{{- .Values.nats.url }}
{{- else if .Values.trial.enabled }}
{{- printf "nats://%s:4222" (include "vault.componentName" (dict "root" . "component" "nats")) }}
{{- end }}
{{- end }}

{{- define "vault.s3Endpoint" -}}
{{- if .Values.s3.endpoint }}
{{- .Values.s3.endpoint }}
{{- else if .Values.trial.enabled }}
{{- printf "http://%s:9000" (include "vault.componentName" (dict "root" . "component" "minio")) }}
{{- end }}
{{- end }}

{{- define "vault.s3PublicEndpoint" -}}
{{- if .Values.s3.publicEndpoint }}
{{- .Values.s3.publicEndpoint }}
{{- else if .Values.trial.enabled }}
{{- .Values.trial.minio.publicEndpoint }}
{{- end }}
{{- end }}

{{/*
The pod-level settings every pod of the chart shares: the fixed security
context (non-root, the runtime's seccomp profile), no API token, pull secrets.
*/}}
{{- define "vault.podSecurity" -}}
automountServiceAccountToken: false
{{- if .Values.serviceAccountName }}
serviceAccountName: {{ .Values.serviceAccountName }}
{{- end }}
{{- with .Values.image.pullSecrets }}
imagePullSecrets:
  {{- range . }}
  - name: {{ . }}
  {{- end }}
{{- end }}
securityContext:
  runAsNonRoot: true
  runAsUser: {{ .Values.securityContext.runAsUser }}
  runAsGroup: {{ .Values.securityContext.runAsGroup }}
  fsGroup: {{ .Values.securityContext.fsGroup }}
  seccompProfile:
    type: RuntimeDefault
{{- end }}

{{/* Every container: no privilege escalation, no capability, nothing written outside its volumes. */}}
{{- define "vault.containerSecurityContext" -}}
runAsNonRoot: true
allowPrivilegeEscalation: false
privileged: false
readOnlyRootFilesystem: true
capabilities:
  drop: ["ALL"]
{{- end }}

{{/* The peers of one kind of store, for NetworkPolicy rules. dict: root, store (nats, postgres, redis, s3) */}}
{{- define "vault.storePeers" -}}
{{- $egress := index .root.Values.networkPolicy.egress .store }}
{{- if $egress.to }}
{{- toYaml $egress.to }}
{{- else if .root.Values.trial.enabled }}
{{- $component := get (dict "nats" "nats" "postgres" "postgres" "redis" "redis" "s3" "minio") .store }}
- podSelector:
    matchLabels:
      {{- include "vault.selectorLabels" (dict "root" .root "component" $component) | nindent 6 }}
{{- end }}
{{- end }}

{{/*
The TCP port a URL connects to: its own (http://minio.example:9000, also
bracketed IPv6, [fd00::9]:9000), else its scheme's default in `defaults`,
else `fallback`. Sprig's urlParse reads the URL; the chart reads ports out
of URLs here and nowhere else. `what` names the value in errors.
dict: url, what, defaults (scheme: port), fallback (optional)
*/}}
{{- define "vault.urlPort" -}}
{{- $url := urlParse .url }}
{{- $port := regexFind ":[0-9]+$" $url.host | trimPrefix ":" }}
{{- if $port }}
{{- $port = atoi $port }}
{{- else if hasKey .defaults $url.scheme }}
{{- $port = get .defaults $url.scheme }}
{{- else if .fallback }}
{{- $port = .fallback }}
{{- else }}
{{- fail (printf "%s: %s names no port, and %s:// has no default one" .what .url $url.scheme) }}
{{- end }}
{{- if or (lt (int $port) 1) (gt (int $port) 65535) }}
{{- fail (printf "%s: port %v of %s is not a TCP port (1-65535)" .what $port .url) }}
{{- end }}
{{- int $port }}
{{- end }}

{{/* The ports of the trial's own stores, as JSON (fromJson it): what their Services and pods listen on. */}}
{{- define "vault.trialStorePorts" -}}
{{- toJson (dict "postgres" 5432 "nats" 4222 "redis" 6379 "s3" 9000 "minio" 9000) }}
{{- end }}

{{/*
The ports an app connects to a kind of store on, as a JSON list (fromJsonArray it):
- nats: the port of NATS_URL as the ConfigMap gives it (nats.url, or the
  trial's), 4222 when it names none, whatever its scheme (nats://, tls://:
  the NATS client's own default);
- s3: the port of S3_ENDPOINT (s3.endpoint, or the trial's MinIO), else 80 for
  http:// and 443 for https://;
- a URL the chart cannot read (PostgreSQL's and Redis's, in Secrets; NATS_URL
  from secrets.natsUrl): networkPolicy.egress.<store>.ports, or the trial
  store's own port when the rule goes to the trial's pods.
dict: root, store (nats, postgres, redis, s3)
*/}}
{{- define "vault.egressPorts" -}}
{{- $root := .root }}
{{- $egress := index $root.Values.networkPolicy.egress .store }}
{{- $url := "" }}
{{- $what := "" }}
{{- $defaults := dict }}
{{- $fallback := 0 }}
{{- if and (eq .store "nats") (not $root.Values.secrets.natsUrl.key) }}
{{- $url = include "vault.natsUrl" $root }}
{{- $what = ternary "nats.url" "the trial's NATS URL" (not (empty $root.Values.nats.url)) }}
{{- $fallback = 4222 }}
{{- else if eq .store "s3" }}
{{- $url = include "vault.s3Endpoint" $root }}
{{- $what = ternary "s3.endpoint" "the trial's MinIO endpoint" (not (empty $root.Values.s3.endpoint)) }}
{{- $defaults = dict "http" 80 "https" 443 }}
{{- end }}
{{- if $url }}
{{- toJson (list (include "vault.urlPort" (dict "url" $url "what" $what "defaults" $defaults "fallback" $fallback) | atoi)) }}
{{- else if and $root.Values.trial.enabled (not $egress.to) }}
{{- toJson (list (get (include "vault.trialStorePorts" $root | fromJson) .store | int)) }}
{{- else }}
{{- toJson $egress.ports }}
{{- end }}
{{- end }}

{{/* One egress rule to a kind of store, on the ports of vault.egressPorts. dict: root, store */}}
{{- define "vault.egressRule" -}}
- ports:
    {{- range include "vault.egressPorts" . | fromJsonArray }}
    - port: {{ int . }}
      protocol: TCP
    {{- end }}
  {{- with include "vault.storePeers" . }}
  to:
    {{- . | trim | nindent 4 }}
  {{- end }}
{{- end }}

{{/* The claim the backups are written to: the operator's, or the one the chart makes. */}}
{{- define "vault.backupClaimName" -}}
{{- .Values.backup.volume.existingClaim | default (include "vault.componentName" (dict "root" . "component" "backups")) }}
{{- end }}

{{/*
The backup job's command-line arguments, as a YAML list: the passphrase's
file, how many to keep, and each destination (apps/gateway/src/backup.ts).
*/}}
{{- define "vault.backupArgs" -}}
{{- $b := .Values.backup -}}
- --passphrase-file
- /var/run/vault-backup/passphrase
- --keep
- {{ $b.keep | quote }}
{{- if $b.volume.enabled }}
- --dir
- /backups
{{- end }}
{{- if $b.s3.enabled }}
- --s3-bucket
- {{ $b.s3.bucket | default .Values.s3.bucket | quote }}
- --s3-prefix
- {{ $b.s3.prefix | quote }}
{{- end }}
{{- end }}

{{/* The backup job's variables beyond the ConfigMap: NATS_URL when it is secret, the bucket's credentials for an upload. */}}
{{- define "vault.backupEnv" -}}
{{- $secrets := .Values.secrets }}
{{- if $secrets.natsUrl.key }}
{{ include "vault.secretEnv" (dict "root" . "env" "NATS_URL" "ref" $secrets.natsUrl) }}
{{- end }}
{{- if .Values.backup.s3.enabled }}
{{ include "vault.secretEnv" (dict "root" . "env" "S3_ACCESS_KEY_ID" "ref" $secrets.s3AccessKeyId) }}
{{ include "vault.secretEnv" (dict "root" . "env" "S3_SECRET_ACCESS_KEY" "ref" $secrets.s3SecretAccessKey) }}
{{- end }}
{{- end }}

{{/* What is wrong with the backup values, as a JSON list of lines (fromJsonArray it); empty without backup.enabled. */}}
{{- define "vault.backupProblems" -}}
{{- $b := .Values.backup }}
{{- $errors := list }}
{{- if $b.enabled }}
{{- if not $b.passphrase.secretName }}
{{- $errors = append $errors "backup.passphrase.secretName: required with backup.enabled: backups are always encrypted; name an existing Secret holding the passphrase under backup.passphrase.key (kubectl -n <namespace> create secret generic vault-backup --from-literal=passphrase=\"$(openssl rand -base64 24)\")" }}
{{- end }}
{{- if not (or $b.volume.enabled $b.s3.enabled) }}
{{- $errors = append $errors "backup.volume.enabled, backup.s3.enabled: a backup needs a destination: enable the volume, the bucket, or both" }}
{{- end }}
{{- end }}
{{- toJson $errors }}
{{- end }}

{{/* Refuses backup values that cannot work, naming every problem at once, as templates/checks.yaml does. */}}
{{- define "vault.backupChecks" -}}
{{- with include "vault.backupProblems" . | fromJsonArray }}
{{- fail (printf "\n\nThe vault chart cannot be installed with these values:\n  - %s\n" (join "\n  - " .)) }}
{{- end }}
{{- end }}
