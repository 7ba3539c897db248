{{/*
One app of the vault: its Deployment and its Service. Every app shares this
shape; what differs is only which secrets it reads (vault.appEnv).
dict: root, component (gateway, auth-svc, ...), values (its block of values)
*/}}
{{- define "vault.app" -}}
{{ include "vault.deployment" . }}
---
{{ include "vault.service" . }}
{{- end }}

{{- define "vault.deployment" -}}
{{- $root := .root }}
{{- $v := .values }}
{{- $autoscaled := and (eq .component "gateway") $v.autoscaling.enabled }}
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ include "vault.componentName" . }}
  labels:
    {{- include "vault.labels" . | nindent 4 }}
spec:
  {{- if not $autoscaled }}
  replicas: {{ $v.replicas }}
  {{- end }}
  revisionHistoryLimit: 5
  # A new pod serves before an old one stops: no gap during an upgrade.
  strategy:
    type: RollingUpdate
    rollingUpdate:
      maxUnavailable: 0
      maxSurge: 1
  selector:
    matchLabels:
      {{- include "vault.selectorLabels" . | nindent 6 }}
  template:
    metadata:
      labels:
        {{- include "vault.labels" . | nindent 8 }}
      annotations:
        # A changed setting rolls the pods, which read it only at start.
        checksum/config: {{ include (print $root.Template.BasePath "/configmap.yaml") $root | sha256sum }}
        {{- if $root.Values.metrics.enabled }}
        # Where Prometheus finds this pod's metrics (kubernetes_sd with the usual relabelling).
        prometheus.io/scrape: "true"
        prometheus.io/port: {{ include "vault.metricsPort" . | quote }}
        prometheus.io/path: /metrics
        {{- end }}
        {{- with $v.podAnnotations }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
    spec:
      {{- include "vault.podSecurity" $root | nindent 6 }}
      terminationGracePeriodSeconds: {{ include "vault.terminationGracePeriodSeconds" . }}
      containers:
        - name: {{ .component }}
          image: {{ include "vault.image" . }}
          imagePullPolicy: {{ $root.Values.image.pullPolicy }}
          ports:
            - name: http
              containerPort: {{ $v.port }}
              protocol: TCP
            {{- if and $root.Values.metrics.enabled (eq .component "gateway") }}
            # Metrics apart from the public port: only the scraper may reach it (NetworkPolicy).
            - name: metrics
              containerPort: {{ $root.Values.metrics.gatewayPort }}
              protocol: TCP
            {{- end }}
          envFrom:
            - configMapRef:
                name: {{ include "vault.componentName" (dict "root" $root "component" "config") }}
          env:
            {{- include "vault.appEnv" . | nindent 12 }}
          # Listening starts after migrations (at start, without the job) and the kept events.
          startupProbe:
            httpGet:
              path: /health/live
              port: http
            periodSeconds: 3
            timeoutSeconds: 2
            failureThreshold: 40
          livenessProbe:
            httpGet:
              path: /health/live
              port: http
            periodSeconds: 10
            timeoutSeconds: 3
            failureThreshold: 3
          # 503 while its database or NATS does not answer: taken out of the Service, not restarted.
          readinessProbe:
            httpGet:
              path: /health/ready
              port: http
            periodSeconds: 5
            timeoutSeconds: 3
            failureThreshold: 2
          {{- if include "vault.kubeletSleeps" . }}
          # Told to stop, the pod leaves the Service's endpoints, but every node's
          # kube-proxy and the ingress controller learn it only later (seconds on a
          # busy cluster): the kubelet waits before the SIGTERM, the pod serving
          # meanwhile, so that no new connection finds it closed. Then it answers
          # not ready and finishes what is in flight. The kubelet's own sleep: the
          # image needs no sleep program.
          lifecycle:
            preStop:
              sleep:
                seconds: {{ int $v.preStopSeconds }}
          {{- end }}
          resources:
            {{- toYaml $v.resources | nindent 12 }}
          securityContext:
            {{- include "vault.containerSecurityContext" $root | nindent 12 }}
          volumeMounts:
            - name: tmp
              mountPath: /tmp
      volumes:
        - name: tmp
          emptyDir:
            sizeLimit: 64Mi
      {{- with $v.nodeSelector }}
      nodeSelector:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with $v.tolerations }}
      tolerations:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with $v.affinity }}
      affinity:
        {{- toYaml . | nindent 8 }}
      {{- end }}
{{- end }}

{{- define "vault.service" -}}
{{- $isGateway := eq .component "gateway" }}
apiVersion: v1
kind: Service
metadata:
  name: {{ include "vault.componentName" . }}
  labels:
    {{- include "vault.labels" . | nindent 4 }}
spec:
  type: {{ if $isGateway }}{{ .values.service.type }}{{ else }}ClusterIP{{ end }}
  selector:
    {{- include "vault.selectorLabels" . | nindent 4 }}
  ports:
    - name: http
      port: {{ if $isGateway }}{{ .values.service.port }}{{ else }}{{ .values.port }}{{ end }}
      targetPort: http
      protocol: TCP
{{- end }}

{{/* The variables that are not in the shared ConfigMap: the port and the secrets this app needs. */}}
{{- define "vault.appEnv" -}}
{{- $root := .root }}
{{- $secrets := $root.Values.secrets -}}
- name: PORT
  value: {{ .values.port | quote }}
{{- if $secrets.natsUrl.key }}
{{ include "vault.secretEnv" (dict "root" $root "env" "NATS_URL" "ref" $secrets.natsUrl) }}
{{- end }}
{{- if eq .component "gateway" }}
{{ include "vault.secretEnv" (dict "root" $root "env" "REDIS_URL" "ref" $secrets.redisUrl) }}
{{- with .values.webDist }}
- name: VAULT_WEB_DIST
  value: {{ . | quote }}
{{- end }}
{{- else }}
{{ include "vault.secretEnv" (dict "root" $root "env" "DATABASE_URL" "ref" (include "vault.databaseUrlRef" (dict "root" $root "service" (trimSuffix "-svc" .component)) | fromYaml)) }}
{{- end }}
{{- if eq .component "auth-svc" }}
{{- if and $root.Values.trial.enabled (not $secrets.ownerPasswordHash.name) }}
{{- /* The trial's generated password, hashed by auth-svc at start (see NOTES). */}}
{{ include "vault.secretEnv" (dict "root" $root "env" "VAULT_OWNER_PASSWORD" "ref" (dict "name" "" "key" "VAULT_OWNER_PASSWORD")) }}
{{- else }}
{{ include "vault.secretEnv" (dict "root" $root "env" "VAULT_OWNER_PASSWORD_HASH" "ref" $secrets.ownerPasswordHash) }}
{{- end }}
{{- end }}
{{- if eq .component "journal-svc" }}
{{ include "vault.secretEnv" (dict "root" $root "env" "VAULT_MASTER_KEY" "ref" $secrets.masterKey) }}
{{- end }}
{{- if eq .component "media-svc" }}
{{ include "vault.secretEnv" (dict "root" $root "env" "S3_ACCESS_KEY_ID" "ref" $secrets.s3AccessKeyId) }}
{{ include "vault.secretEnv" (dict "root" $root "env" "S3_SECRET_ACCESS_KEY" "ref" $secrets.s3SecretAccessKey) }}
{{- end }}
{{- if not $root.Values.metrics.enabled }}
- name: VAULT_METRICS
  value: "false"
{{- else if eq .component "gateway" }}
- name: METRICS_PORT
  value: {{ $root.Values.metrics.gatewayPort | quote }}
- name: METRICS_HOST
  value: "0.0.0.0"
{{- end }}
{{- if and (eq .component "gateway") (gt (int .values.preStopSeconds) 0) (not (include "vault.kubeletSleeps" .)) }}
{{- /* A cluster before 1.30 has no preStop sleep: the gateway waits itself after the SIGTERM, answering not ready. */}}
- name: VAULT_STOP_DELAY_SECONDS
  value: {{ .values.preStopSeconds | quote }}
{{- end }}
{{- with .values.extraEnv }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{/*
"true" when the kubelet waits gateway.preStopSeconds before it stops the gateway (the preStop
sleep action, Kubernetes 1.30+), "" otherwise. dict: root, component, values
*/}}
{{- define "vault.kubeletSleeps" -}}
{{- if and (eq .component "gateway") (gt (int .values.preStopSeconds) 0) (semverCompare ">=1.30.0-0" .root.Capabilities.KubeVersion.Version) }}true{{ end }}
{{- end }}

{{/*
How long the kubelet lets a stopping pod take before it kills it: the gateway's wait
(preStopSeconds, which counts within it) plus the 30 s every app has to finish what is in
flight and close. dict: root, component, values
*/}}
{{- define "vault.terminationGracePeriodSeconds" -}}
{{- if eq .component "gateway" }}{{ add (int .values.preStopSeconds) 30 }}{{ else }}30{{ end }}
{{- end }}

{{/* The port an app serves /metrics on: the gateway's own metrics port, a service's health port. dict: root, component, values */}}
{{- define "vault.metricsPort" -}}
{{- if eq .component "gateway" }}{{ .root.Values.metrics.gatewayPort }}{{ else }}{{ .values.port }}{{ end }}
{{- end }}
