#!/usr/bin/env bash
# Prints the path of a helm v3 binary, building it from its Go module into
# ~/.cache/vault/tools/helm-<version>/ the first time (about 10 minutes and a
# lot of CPU; then instant). Usage: HELM="$(bash scripts/tools/helm.sh)"
#
#   VAULT_HELM_VERSION   v3.19.0
#   VAULT_TOOLS_DIR      ~/.cache/vault/tools
#   GO                   /usr/local/go/bin/go, else the go on PATH
#
# The link flags are those of helm's own Makefile: without them the binary
# reports version "v3.19" and renders for Kubernetes v1.20 (.Capabilities and
# lint's deprecation rules); with them it renders for the Kubernetes minor of
# its k8s.io modules.
set -euo pipefail
source "$(dirname "$0")/go.sh"

VERSION="${VAULT_HELM_VERSION:-v3.19.0}"
BIN_DIR="$VAULT_TOOLS_DIR/helm-$VERSION"
BINARY="$BIN_DIR/helm"

one_build_at_a_time "helm-$VERSION"
if [ ! -x "$BINARY" ]; then
  GO_BIN="$(find_go helm)"
  echo "[tools] building helm $VERSION with $("$GO_BIN" version) into $BIN_DIR (several minutes, once)" >&2
  # The Kubernetes minor helm was built against, as its Makefile reads it from go.mod.
  K8S_MINOR="$(cd "$(mktemp -d)" && "$GO_BIN" mod download -json "helm.sh/helm/v3@$VERSION" | sed -n 's/.*"GoMod": "\(.*\)".*/\1/p' | xargs grep -m1 'k8s.io/client-go v0\.' | sed 's/.*v0\.\([0-9]*\)\..*/\1/')"
  if [ -z "$K8S_MINOR" ]; then
    echo "[tools] could not read the Kubernetes version of helm $VERSION from its go.mod" >&2
    exit 1
  fi
  LDFLAGS="-s -w -X helm.sh/helm/v3/internal/version.version=$VERSION"
  LDFLAGS="$LDFLAGS -X helm.sh/helm/v3/internal/version.gitTreeState=clean"
  for pkg in helm.sh/helm/v3/pkg/lint/rules helm.sh/helm/v3/pkg/chartutil; do
    LDFLAGS="$LDFLAGS -X $pkg.k8sVersionMajor=1 -X $pkg.k8sVersionMinor=$K8S_MINOR"
  done
  mkdir -p "$BIN_DIR"
  GOBIN="$BIN_DIR" GOFLAGS=-mod=mod nice -n 10 "$GO_BIN" install -trimpath -ldflags="$LDFLAGS" "helm.sh/helm/v3/cmd/helm@$VERSION" >&2
fi
printf '%s\n' "$BINARY"
