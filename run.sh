#!/usr/bin/env bash
# Builds Teahouse and starts the server on http://localhost:8080 with its SQLite file.
# Extra arguments go to the server (see: build/server/teahouse --help). It listens on this
# machine only; to let others on your network play: ./run.sh --bind 0.0.0.0
set -euo pipefail
cd "$(dirname "$0")"
scripts/deps.sh build
[ -d build ] || meson setup build --buildtype=release -Dtests=disabled
ninja -C build
exec build/server/teahouse "$@"
