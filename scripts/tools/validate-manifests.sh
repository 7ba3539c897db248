#!/usr/bin/env bash
# Prints the path of tools/validate-manifests built (docs/adr/0006), building
# it into ~/.cache/vault/tools/validate-manifests-<hash of its sources>/ when
# missing, so an edited validator is rebuilt. Its k8s.io modules come from the
# Go module proxy the first time (about a minute of compiling; then instant).
# Usage: VALIDATE="$(bash scripts/tools/validate-manifests.sh)"
set -euo pipefail
source "$(dirname "$0")/go.sh"

SOURCE="$(cd "$(dirname "$0")/../../tools/validate-manifests" && pwd)"
HASH="$(cd "$SOURCE" && cat go.mod go.sum ./*.go | sha256sum | cut -c1-12)"
BIN_DIR="$VAULT_TOOLS_DIR/validate-manifests-$HASH"
BINARY="$BIN_DIR/validate-manifests"

one_build_at_a_time validate-manifests
if [ ! -x "$BINARY" ]; then
  GO_BIN="$(find_go validate-manifests)"
  echo "[tools] building validate-manifests into $BIN_DIR" >&2
  mkdir -p "$BIN_DIR"
  (cd "$SOURCE" && nice -n 10 "$GO_BIN" build -trimpath -ldflags='-s -w' -o "$BINARY.tmp" . && mv "$BINARY.tmp" "$BINARY") >&2
  # Builds of earlier sources are of no further use.
  find "$VAULT_TOOLS_DIR" -maxdepth 1 -type d -name 'validate-manifests-*' ! -name "validate-manifests-$HASH" -exec rm -rf {} + >&2
fi
printf '%s\n' "$BINARY"
