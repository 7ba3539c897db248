#!/usr/bin/env bash
# Prints the folder holding the one-node cluster's programs (kube-apiserver,
# kube-controller-manager, kube-scheduler, kubelet, kube-proxy, kubectl, etcd,
# coredns, and pause: the pods' sandbox process, for an image made here), building them from their Go modules at the versions of
# versions.env into ~/.cache/vault/k8s/<versions>/ the first time (tens of
# minutes of CPU on two cores; then instant). Like helm (scripts/tools/helm.sh):
# this machine reaches no download site but the Go module proxy.
#
#   bash deploy/test/cluster/build.sh [program ...]   (default: all of them)
#
#   VAULT_K8S_DIR   ~/.cache/vault/k8s
#   GO              /usr/local/go/bin/go, else the go on PATH
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
source "$HERE/../../../scripts/tools/go.sh"
source "$HERE/versions.env"

K8S_DIR="${VAULT_K8S_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/vault/k8s}"
OUT="$K8S_DIR/kubernetes-$KUBERNETES_VERSION-etcd-$ETCD_VERSION-coredns-$COREDNS_VERSION"
ALL=(kube-apiserver kube-controller-manager kube-scheduler kubelet kube-proxy kubectl etcd coredns pause)
# Arguments name the programs wanted (the API-level checks need kube-apiserver, etcd and kubectl only).
if [ "$#" -gt 0 ]; then PROGRAMS=("$@"); else PROGRAMS=("${ALL[@]}"); fi
wanted() { local p; for p in "${PROGRAMS[@]}"; do [ "$p" = "$1" ] && return 0; done; return 1; }
missing() { wanted "$1" && ! [ -x "$OUT/$1" ]; }
complete() { for p in "${PROGRAMS[@]}"; do [ -x "$OUT/$p" ] || return 1; done; }
if complete; then printf '%s\n' "$OUT"; exit 0; fi

GO_BIN="$(find_go "the Kubernetes programs")"
export GOWORK=off GOFLAGS=-mod=mod CGO_ENABLED=0
mkdir -p "$OUT"
WORK="$(mktemp -d)"
trap 'chmod -R u+w "$WORK" 2>/dev/null; rm -rf "$WORK"' EXIT
log() { echo "[k8s build $(date +%T)] $*" >&2; }

# k8s.io/kubernetes: its module has no staging/ folder, so its ./staging
# replace lines cannot work; drop them and require the published k8s.io/*
# modules of the same release instead.
if missing kube-apiserver || missing kube-controller-manager || missing kube-scheduler \
  || missing kubelet || missing kube-proxy || missing kubectl; then
  log "fetching k8s.io/kubernetes@$KUBERNETES_VERSION"
  SRC="$(cd "$WORK" && "$GO_BIN" mod download -json "k8s.io/kubernetes@$KUBERNETES_VERSION" | sed -n 's/.*"Dir": "\(.*\)".*/\1/p')"
  cp -r "$SRC" "$WORK/kubernetes" && chmod -R u+w "$WORK/kubernetes"
  cd "$WORK/kubernetes"
  rm -rf vendor go.work go.work.sum
  sed -i -e '/=> \.\/staging\//d' -e "s#^\(\s*k8s\.io/[a-z-]*\) v0\.0\.0\$#\1 $KUBERNETES_STAGING_VERSION#" go.mod
  # Without the version stamp the servers report v0.0.0 and helm refuses
  # charts that declare a kubeVersion.
  MINOR="$(echo "$KUBERNETES_VERSION" | cut -d. -f2)"
  V=k8s.io/component-base/version
  LDFLAGS="-s -w -X $V.gitVersion=$KUBERNETES_VERSION -X $V.gitMajor=1 -X $V.gitMinor=$MINOR -X $V.gitTreeState=clean -X $V.buildDate=1970-01-01T00:00:00Z"
  LDFLAGS="$LDFLAGS -X k8s.io/client-go/pkg/version.gitVersion=$KUBERNETES_VERSION -X k8s.io/client-go/pkg/version.gitMajor=1 -X k8s.io/client-go/pkg/version.gitMinor=$MINOR"
  for p in kube-apiserver kube-controller-manager kube-scheduler kubelet kube-proxy kubectl; do
    missing "$p" || continue
    log "building $p $KUBERNETES_VERSION"
    started=$SECONDS
    nice -n 10 "$GO_BIN" build -trimpath -ldflags="$LDFLAGS" -o "$OUT/$p.tmp" "./cmd/$p"
    mv "$OUT/$p.tmp" "$OUT/$p"
    log "built $p in $((SECONDS - started)) s"
  done
fi

# etcd: its main module has replace directives, so it is built from a main
# package of our own that calls etcdmain.
if missing etcd; then
  log "building etcd $ETCD_VERSION"
  started=$SECONDS
  mkdir -p "$WORK/etcd" && cd "$WORK/etcd"
  cat > main.go <<'GO'
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() { etcdmain.Main(os.Args) }
GO
  "$GO_BIN" mod init vault.local/etcd 2>/dev/null
  "$GO_BIN" get "go.etcd.io/etcd/server/v3@$ETCD_VERSION"
  nice -n 10 "$GO_BIN" build -trimpath -ldflags='-s -w' -o "$OUT/etcd.tmp" .
  mv "$OUT/etcd.tmp" "$OUT/etcd"
  log "built etcd in $((SECONDS - started)) s"
fi

if missing coredns; then
  log "building coredns $COREDNS_VERSION"
  started=$SECONDS
  mkdir -p "$WORK/coredns-bin"
  GOBIN="$WORK/coredns-bin" nice -n 10 "$GO_BIN" install -trimpath -ldflags='-s -w' "github.com/coredns/coredns@$COREDNS_VERSION"
  mv "$WORK/coredns-bin/coredns" "$OUT/coredns"
  log "built coredns in $((SECONDS - started)) s"
fi

# The sandbox process of every pod (registry.k8s.io/pause cannot be pulled
# here): waits for a signal and exits, as the real one does.
if missing pause; then
  mkdir -p "$WORK/pause" && cd "$WORK/pause"
  cat > main.go <<'GO'
package main

import (
	"os"
	"os/signal"
	"syscall"
)

func main() {
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGINT, syscall.SIGTERM)
	<-signals
}
GO
  "$GO_BIN" mod init vault.local/pause 2>/dev/null
  "$GO_BIN" build -trimpath -ldflags='-s -w' -o "$OUT/pause" .
fi

complete
printf '%s\n' "$OUT"
