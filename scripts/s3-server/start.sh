#!/usr/bin/env bash
# The S3-compatible server the media integration tests (and the distributed
# mode on one machine) talk to: MinIO, built from its Go module because this
# machine reaches no download site but the Go module proxy (docs/adr/0004).
#
# Idempotent: builds the binary into a cache folder when it is missing (a few
# minutes and a lot of CPU the first time), starts it unless it already
# answers, and waits until it does. Fixed local test credentials; data under
# /tmp. Every setting can be overridden from the environment:
#
#   VAULT_S3_ADDRESS      127.0.0.1:9000
#   VAULT_S3_ACCESS_KEY   vault-test
#   VAULT_S3_SECRET_KEY   vault-test-secret
#   VAULT_S3_DATA_DIR     /tmp/vault-s3/data
#   VAULT_S3_CACHE_DIR, VAULT_S3_MINIO_VERSION, GO: the build (build.sh)
#
# Stop it with scripts/s3-server/stop.sh.
set -euo pipefail

ADDRESS="${VAULT_S3_ADDRESS:-127.0.0.1:9000}"
ACCESS_KEY="${VAULT_S3_ACCESS_KEY:-vault-test}"
SECRET_KEY="${VAULT_S3_SECRET_KEY:-vault-test-secret}"
RUN_DIR="${VAULT_S3_RUN_DIR:-/tmp/vault-s3}"
DATA_DIR="${VAULT_S3_DATA_DIR:-$RUN_DIR/data}"
PID_FILE="$RUN_DIR/minio.pid"
LOG_FILE="$RUN_DIR/minio.log"
HEALTH_URL="http://$ADDRESS/minio/health/live"

say() { printf '[s3-server] %s\n' "$*"; }
answers() { curl -fsS -o /dev/null --max-time 2 "$HEALTH_URL" 2>/dev/null; }

if answers; then
  say "already answering at http://$ADDRESS"
  exit 0
fi

# Built once from its Go module (build.sh), cached.
BINARY="$(bash "$(dirname "${BASH_SOURCE[0]}")/build.sh")"

# Something else on the port would make every test fail in a confusing way.
if (exec 3<>"/dev/tcp/${ADDRESS%:*}/${ADDRESS##*:}") 2>/dev/null; then
  say "port ${ADDRESS##*:} is taken by something that is not MinIO; set VAULT_S3_ADDRESS" >&2
  exit 1
fi

mkdir -p "$DATA_DIR"
say "starting MinIO at http://$ADDRESS (data in $DATA_DIR, log in $LOG_FILE)"
MINIO_ROOT_USER="$ACCESS_KEY" MINIO_ROOT_PASSWORD="$SECRET_KEY" MINIO_BROWSER=off MINIO_UPDATE=off \
  setsid nohup "$BINARY" server --quiet --address "$ADDRESS" "$DATA_DIR" >"$LOG_FILE" 2>&1 </dev/null &
echo $! >"$PID_FILE"

for _ in $(seq 1 60); do
  if answers; then
    say "ready: endpoint http://$ADDRESS, access key $ACCESS_KEY, secret key $SECRET_KEY"
    exit 0
  fi
  if ! kill -0 "$(cat "$PID_FILE")" 2>/dev/null; then
    say "MinIO exited; its log:" >&2
    cat "$LOG_FILE" >&2
    exit 1
  fi
  sleep 0.5
done
say "MinIO did not answer at $HEALTH_URL within 30 s; its log: $LOG_FILE" >&2
exit 1
