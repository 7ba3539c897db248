# Sourced by the tool scripts: finds a Go toolchain (GO, /usr/local/go/bin/go or
# go on PATH) and names the cache folder of built tools. This machine reaches
# no download site but the Go module proxy, so tools are built from their Go
# modules once and kept there (docs/adr/0004, 0006).
VAULT_TOOLS_DIR="${VAULT_TOOLS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/vault/tools}"

find_go() {
  local go_bin="${GO:-}"
  if [ -z "$go_bin" ]; then
    if [ -x /usr/local/go/bin/go ]; then go_bin=/usr/local/go/bin/go; else go_bin="$(command -v go || true)"; fi
  fi
  if [ -z "$go_bin" ]; then
    echo "[tools] no Go toolchain (GO, /usr/local/go/bin/go or go on PATH): it is needed once to build $1" >&2
    return 1
  fi
  printf '%s' "$go_bin"
}

# One build of a tool at a time (held until the script exits): CI builds the
# tools in the background while npm install runs, and the deploy tier's own
# call waits here for that build, then finds the binary.
one_build_at_a_time() {
  mkdir -p "$VAULT_TOOLS_DIR"
  exec 9>"$VAULT_TOOLS_DIR/.$1.lock"
  flock 9
}
