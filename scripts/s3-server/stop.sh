#!/usr/bin/env bash
# Stops the MinIO that start.sh started (by its pid file), and keeps its data
# unless --wipe is given.
set -euo pipefail
RUN_DIR="${VAULT_S3_RUN_DIR:-/tmp/vault-s3}"
DATA_DIR="${VAULT_S3_DATA_DIR:-$RUN_DIR/data}"
PID_FILE="$RUN_DIR/minio.pid"

if [ -f "$PID_FILE" ] && kill -0 "$(cat "$PID_FILE")" 2>/dev/null; then
  kill "$(cat "$PID_FILE")"
  for _ in $(seq 1 20); do kill -0 "$(cat "$PID_FILE")" 2>/dev/null || break; sleep 0.25; done
  echo "[s3-server] stopped"
else
  echo "[s3-server] not running (no live pid in $PID_FILE)"
fi
rm -f "$PID_FILE"
if [ "${1:-}" = "--wipe" ]; then rm -rf "$DATA_DIR" && echo "[s3-server] removed $DATA_DIR"; fi
