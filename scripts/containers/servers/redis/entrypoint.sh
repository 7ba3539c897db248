#!/bin/sh
# `redis-server [options]` without a configuration file: no persistence, and
# clients from any address (the container's network is private to its host).
set -eu
if [ "${1:-}" = redis-server ]; then
  shift
  set -- redis-server --protected-mode no --save '' --appendonly no "$@"
fi
exec "$@"
