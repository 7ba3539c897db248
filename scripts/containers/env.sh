# Container settings shared by everything that builds or runs images on a
# machine without a Docker engine (buildah and podman, Debian's packages).
# Source it, then call buildah and podman as usual:
#
#   . scripts/containers/env.sh
#   buildah bud ...; podman run ...; podman images
#
# - CONTAINERS_CONF: containers.conf beside this file (runc, cgroupfs, no
#   default ulimits, host network).
# - CONTAINERS_STORAGE_CONF: the vfs driver by default, with the images under
#   $VAULT_CONTAINERS_DIR/storage (default ~/.cache/vault/containers), apart
#   from any other user's containers. vfs copies every layer whole: keep
#   images to few layers. VAULT_CONTAINERS_DRIVER=overlay uses the kernel's
#   overlayfs instead (root only, and a filesystem it works on): a layer costs
#   only what it adds, in a store of its own under storage-overlay.
#   scripts/containers/build-images.mjs picks overlay where it works.
# - VAULT_BASE_IMAGE: the local Debian + Node base (scripts/containers/base-image.sh).
#
# A Docker-API client (testcontainers) can use podman's API with the same settings:
#   podman system service --time=0 "unix://$VAULT_CONTAINERS_DIR/podman.sock" &
#   DOCKER_HOST="unix://$VAULT_CONTAINERS_DIR/podman.sock" ...

VAULT_CONTAINERS_CONFIG_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export VAULT_CONTAINERS_DIR="${VAULT_CONTAINERS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/vault/containers}"
export CONTAINERS_CONF="$VAULT_CONTAINERS_CONFIG_DIR/containers.conf"
case "${VAULT_CONTAINERS_DRIVER:-vfs}" in
  vfs) vault_storage=storage ;;
  overlay) vault_storage=storage-overlay ;;
  *) echo "env.sh: VAULT_CONTAINERS_DRIVER is vfs or overlay, not ${VAULT_CONTAINERS_DRIVER}" >&2; return 1 ;;
esac
export CONTAINERS_STORAGE_CONF="$VAULT_CONTAINERS_DIR/$vault_storage.conf"
export VAULT_BASE_IMAGE="${VAULT_BASE_IMAGE:-localhost/vault-base:node$(node -p process.versions.node)}"

mkdir -p "$VAULT_CONTAINERS_DIR"
# storage.conf needs absolute paths: written here, rewritten only when they change.
vault_storage_conf="[storage]
driver = \"${VAULT_CONTAINERS_DRIVER:-vfs}\"
graphroot = \"$VAULT_CONTAINERS_DIR/$vault_storage\"
runroot = \"/run/vault-containers/$vault_storage\""
if [ "$(cat "$CONTAINERS_STORAGE_CONF" 2>/dev/null)" != "$vault_storage_conf" ]; then
  printf '%s\n' "$vault_storage_conf" >"$CONTAINERS_STORAGE_CONF"
fi
unset vault_storage_conf vault_storage
