#!/usr/bin/env bash
# Builds the MinIO binary from its Go module into a cache folder, once, and
# prints its path. Used by start.sh (the machine's S3 server) and by the
# integration suite's MinIO image (scripts/containers/servers/build.sh), so
# both run the same binary.
#
#   VAULT_S3_MINIO_VERSION  the module version (default below)
#   VAULT_S3_CACHE_DIR      ~/.cache/vault/s3-server
#   GO                      /usr/local/go/bin/go, else the go on PATH
set -euo pipefail

# A pseudo-version of github.com/minio/minio (its last commit, February 2026):
# the proxy serves MinIO's RELEASE.* tags only as such versions.
MINIO_VERSION="${VAULT_S3_MINIO_VERSION:-v0.0.0-20260212201848-7aac2a2c5b7c}"
CACHE_DIR="${VAULT_S3_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/vault/s3-server}"
BIN_DIR="$CACHE_DIR/minio-$MINIO_VERSION"
BINARY="$BIN_DIR/minio"

# One build at a time: CI asks for the binary twice at once on a cold machine
# (the machine's S3 server and the integration tier's MinIO image); the second
# waits here for the first and finds the binary made, instead of compiling
# MinIO again beside it on the same two cores.
mkdir -p "$CACHE_DIR"
exec 8>"$CACHE_DIR/build.lock"
flock 8

if [ ! -x "$BINARY" ]; then
  GO_BIN="${GO:-}"
  if [ -z "$GO_BIN" ]; then
    if [ -x /usr/local/go/bin/go ]; then GO_BIN=/usr/local/go/bin/go; else GO_BIN="$(command -v go || true)"; fi
  fi
  if [ -z "$GO_BIN" ]; then
    echo "[s3-server] no Go toolchain (GO, /usr/local/go/bin/go or go on PATH): it is needed once to build MinIO" >&2
    exit 1
  fi
  echo "[s3-server] building MinIO $MINIO_VERSION with $("$GO_BIN" version) into $BIN_DIR (several minutes, once)" >&2
  mkdir -p "$BIN_DIR"
  # Into a scratch folder first: an interrupted build leaves no half binary.
  scratch="$(mktemp -d "$CACHE_DIR/build.XXXXXX")"
  trap 'rm -rf "$scratch"' EXIT
  # -mod=mod: MinIO's go.mod is the source of truth; nothing is vendored.
  GOBIN="$scratch" GOFLAGS=-mod=mod nice -n 10 "$GO_BIN" install -trimpath -ldflags='-s -w' "github.com/minio/minio@$MINIO_VERSION" >&2
  mv "$scratch/minio" "$BINARY"
fi
echo "$BINARY"
