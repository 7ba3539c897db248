#!/usr/bin/env bash
# The integration suite's server images, made here with buildah: no image is
# pulled from any registry. Each starts from Debian bookworm as debootstrap
# made it for the local base image (scripts/containers/base-image.sh) and
# installs Debian's own packages from the machine's mirror, at the machine's
# versions:
#
#   localhost/vault-it-postgres:15   postgresql-15
#   localhost/vault-it-nats:2.9      nats-server, JetStream on
#   localhost/vault-it-redis:7.0     redis-server
#   localhost/vault-it-minio:latest  the MinIO binary of scripts/s3-server/build.sh
#
#   bash scripts/containers/servers/build.sh     # prints the four names
#
# Cached in the project's image store ($VAULT_CONTAINERS_DIR, see env.sh): an
# image is made again only when its inputs (Containerfile, the files beside
# it, the Debian image, the MinIO binary) changed, or with REBUILD=1.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
log() { printf 'server-images: %s\n' "$*" >&2; }

# One build at a time: CI starts one in the background while the suite runs,
# and the integration tier's own call (test.sh) waits here for it to finish.
lock_dir="${VAULT_CONTAINERS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/vault/containers}"
mkdir -p "$lock_dir"
exec 9>"$lock_dir/server-images.lock"
flock 9

# The local base first (it keeps the Debian root filesystem it was made from).
"$here/../base-image.sh" >/dev/null
# shellcheck source=../env.sh
. "$here/../env.sh"

# The servers need no Node: they start from the Debian root filesystem alone,
# imported once as localhost/vault-debian:bookworm (smaller containers with the
# vfs driver, which copies every image whole). Without that file (a base image
# made elsewhere), the base image itself serves.
rootfs_tar="$VAULT_CONTAINERS_DIR/base/debian-bookworm-minbase.tar"
debian_image=localhost/vault-debian:bookworm
if [ -f "$rootfs_tar" ]; then
  rootfs_stamp="$(stat -c '%s-%Y' "$rootfs_tar")"
  if [ "$(buildah inspect --type image --format '{{index .ImageAnnotations "vault.rootfs"}}' "$debian_image" 2>/dev/null || true)" != "$rootfs_stamp" ]; then
    log "importing the Debian root filesystem as $debian_image ..."
    container="$(buildah from scratch)"
    buildah add --quiet "$container" "$rootfs_tar" / >/dev/null
    buildah config --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin --cmd bash \
      --annotation "vault.rootfs=$rootfs_stamp" "$container"
    buildah commit --quiet --rm "$container" "$debian_image" >/dev/null
  fi
  base="$debian_image"
else
  base="$VAULT_BASE_IMAGE"
fi
base_id="$(buildah inspect --type image --format '{{.FromImageID}}' "$base")"

declare -A tags=([postgres]=15 [nats]=2.9 [redis]=7.0 [minio]=latest)
for name in ${VAULT_IT_SERVER_IMAGES:-postgres nats redis minio}; do
  image="localhost/vault-it-$name:${tags[$name]}"
  context="$(mktemp -d)"
  cp -a "$here/$name/." "$context/"
  [ "$name" != minio ] || cp "$(bash "$root/scripts/s3-server/build.sh")" "$context/minio"
  # What the image is made of: a change in any of it makes the image again.
  inputs="$( { echo "$base_id"; cd "$context" && find . -type f | sort | xargs sha256sum; } | sha256sum | cut -c1-16)"
  have="$(buildah inspect --type image --format '{{index .ImageAnnotations "vault.inputs"}}' "$image" 2>/dev/null || true)"
  if [ "${REBUILD:-0}" = 1 ] || [ "$have" != "$inputs" ]; then
    log "building $image ..."
    started=$SECONDS
    previous="$(buildah inspect --type image --format '{{.FromImageID}}' "$image" 2>/dev/null || true)"
    # --pull=never: the base is local, and nothing may come from a registry.
    buildah bud --quiet --pull=never --network host --layers=false \
      --build-arg "BASE=$base" --annotation "vault.inputs=$inputs" \
      -f "$context/Containerfile" -t "$image" "$context" >/dev/null
    log "built $image in $((SECONDS - started)) s"
    # The image it replaces, now nameless, would only fill the disk.
    current="$(buildah inspect --type image --format '{{.FromImageID}}' "$image")"
    [ -z "$previous" ] || [ "$previous" = "$current" ] || buildah rmi "$previous" >/dev/null 2>&1 || true
  else
    log "$image is up to date"
  fi
  rm -rf "$context"
  echo "$image"
done
