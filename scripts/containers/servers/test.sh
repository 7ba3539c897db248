#!/usr/bin/env bash
# `npm run test:integration:containers`: the integration tier through
# testcontainers on a machine without a Docker engine. Builds the server
# images when they are missing or stale (build.sh), then runs
# `node scripts/test.mjs integration` (or the command given, which is how
# `npm test`'s integration tier runs with VAULT_IT_SERVERS=containers) against
# podman's Docker API (../with-podman-api.sh) with VAULT_IT_SERVERS=containers,
# so that the run fails, rather than falls back to the machine's servers, when
# no container can be started.
#
# As root it runs in a network namespace of its own, where the machine's
# PostgreSQL, NATS, Redis and S3 server are out of reach (VAULT_IT_NETNS=0
# runs in the machine's network instead).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
cd "$root"
say() { printf '[test:containers] %s\n' "$*" >&2; }

started=$SECONDS
bash "$here/build.sh" >/dev/null
say "server images ready in $((SECONDS - started)) s"

netns=()
if [ "${VAULT_IT_NETNS:-1}" != 0 ] && [ "$(id -u)" = 0 ]; then netns=(--netns); fi
started=$SECONDS
status=0
command=("$@")
[ "${#command[@]}" -gt 0 ] || command=(node scripts/test.mjs integration)
VAULT_IT_SERVERS=containers bash "$here/../with-podman-api.sh" "${netns[@]}" -- "${command[@]}" || status=$?
say "integration tier through testcontainers: exit $status in $((SECONDS - started)) s"
exit "$status"
