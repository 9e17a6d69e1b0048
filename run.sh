#!/usr/bin/env bash
# Builds Teahouse and starts the server on http://localhost:8080 with its SQLite file.
# Extra arguments go to the server (see: build/server/teahouse --help).
set -euo pipefail
cd "$(dirname "$0")"
scripts/deps.sh build
[ -d build ] || meson setup build --buildtype=release -Dtests=disabled
ninja -C build
exec build/server/teahouse "$@"
