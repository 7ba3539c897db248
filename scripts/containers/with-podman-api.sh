#!/usr/bin/env bash
# Runs a command with podman's Docker-compatible API, for Docker-API clients
# such as testcontainers, on a machine without a Docker engine:
#
#   bash scripts/containers/with-podman-api.sh [--netns] -- COMMAND [ARGS...]
#
# - `podman system service` on a unix socket of its own, with the project's
#   runtime and storage settings (scripts/containers/env.sh), for as long as
#   COMMAND runs; DOCKER_HOST names it.
# - TESTCONTAINERS_RYUK_DISABLED=true: Ryuk, testcontainers' reaper, is an
#   image from a registry and none is pulled here. The suite removes its own
#   containers; whatever it left (a crash, an interrupt) is removed here
#   afterwards and makes the run fail, so a leak never goes unseen.
# - VAULT_IT_IMAGES=local: the suite's server images are the local ones of
#   scripts/containers/servers/build.sh (localhost/ names: a pull of them could
#   only fail, never reach a registry).
# - CONTAINERS_REGISTRIES_CONF: servers/registries.conf, which blocks the
#   public registries: a missing image fails the run, it is never pulled.
# - --netns: the service, its containers and COMMAND run in a network
#   namespace of their own (loopback only): the machine's servers on
#   127.0.0.1 are out of reach, so the run shows it needs none of them, and
#   the bridge and port rules podman makes stay out of the machine's network.
#   Needs root (ip netns).
#
# The exit status is COMMAND's (or 1 when containers were left behind).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=env.sh
. "$here/env.sh"
say() { printf '[podman-api] %s\n' "$*" >&2; }

netns=""
while [ $# -gt 0 ]; do
  case "$1" in
    --netns) netns="vault-it-$$"; shift ;;
    --) shift; break ;;
    *) break ;;
  esac
done
[ $# -gt 0 ] || { say "usage: with-podman-api.sh [--netns] -- COMMAND [ARGS...]"; exit 2; }

# What podman needs here, checked first: without iptables, netavark fails each
# container's port mapping with a bare "No such file or directory".
for tool in podman runc iptables; do
  command -v "$tool" >/dev/null || { say "$tool is missing (apt-get install $tool)"; exit 1; }
done
[ -x /usr/lib/podman/netavark ] || { say "netavark is missing (apt-get install netavark)"; exit 1; }

# Containers of this run carry this label (the suite sets it on each one,
# from VAULT_IT_RUN): leftovers of this run are told from another's.
export VAULT_IT_RUN="run-$$"
LABEL="vault.integration=$VAULT_IT_RUN"
socket="$VAULT_CONTAINERS_DIR/podman-api-$$.sock"
inside=()
service=""

cleanup() {
  local status=$?
  set +e
  local left
  left="$("${inside[@]}" podman ps -a -q --filter "label=$LABEL" 2>/dev/null)"
  if [ -n "$left" ]; then
    say "containers left behind, removing them: $(echo $left)"
    "${inside[@]}" podman rm -f -t 2 $left >/dev/null 2>&1
    [ "$status" -ne 0 ] || status=1
  fi
  if [ -n "$service" ]; then
    kill "$service" 2>/dev/null
    wait "$service" 2>/dev/null
    say "podman API service stopped (pid $service)"
  fi
  rm -f "$socket"
  if [ -n "$netns" ]; then
    ip netns delete "$netns" 2>/dev/null && say "network namespace $netns deleted"
  fi
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

if [ -n "$netns" ]; then
  ip netns add "$netns"
  ip -n "$netns" link set lo up
  # nsenter, not `ip netns exec`: only the network is changed; the latter also
  # remounts /sys, which hides the cgroup mounts runc needs.
  inside=(nsenter "--net=/run/netns/$netns")
  say "network namespace $netns (loopback only)"
  # What the machine serves on 127.0.0.1 must be out of reach in there.
  for port in 5432 4222 6379 9000; do
    if "${inside[@]}" bash -c "exec 3<>/dev/tcp/127.0.0.1/$port" 2>/dev/null; then
      say "127.0.0.1:$port answers inside $netns: it is not isolated"; exit 1
    fi
  done
  say "in there, 127.0.0.1:5432 (PostgreSQL), :4222 (NATS), :6379 (Redis) and :9000 (S3) of the machine do not answer"
fi

export CONTAINERS_REGISTRIES_CONF="$here/servers/registries.conf"
rm -f "$socket"
"${inside[@]}" podman system service --time=0 "unix://$socket" >"$VAULT_CONTAINERS_DIR/podman-api.log" 2>&1 &
service=$!
for _ in $(seq 1 100); do
  curl -fsS --max-time 2 --unix-socket "$socket" http://d/_ping >/dev/null 2>&1 && break
  kill -0 "$service" 2>/dev/null || { say "podman system service exited:"; cat "$VAULT_CONTAINERS_DIR/podman-api.log" >&2; exit 1; }
  sleep 0.2
done
curl -fsS --max-time 2 --unix-socket "$socket" http://d/_ping >/dev/null ||
  { say "podman's API did not answer on $socket"; exit 1; }
say "podman API service (pid $service, $(podman --version)) on unix://$socket"

export DOCKER_HOST="unix://$socket"
export TESTCONTAINERS_RYUK_DISABLED=true
export VAULT_IT_IMAGES=local
set +e
"${inside[@]}" "$@"
status=$?
set -e
exit "$status"
