#!/usr/bin/env bash
# Installs what the tests need, builds and runs every test: unit suites, the score calculator,
# integration tests against the real server and browser tests.
#   ./test.sh             a normal build in build-test/
#   ./test.sh --sanitize  the same under AddressSanitizer and UndefinedBehaviorSanitizer (build-asan/)
set -euo pipefail
cd "$(dirname "$0")"
scripts/deps.sh test
# playwright-core for the browser tests, exactly as package-lock.json pins it (never a browser download)
if [ -f package-lock.json ] && [ ! -d node_modules/playwright-core ]; then
  npm ci --no-audit --no-fund
fi

dir=build-test
opts=(--buildtype=debugoptimized -Dwerror=true)
if [ "${1:-}" = "--sanitize" ]; then
  dir=build-asan
  opts+=(-Db_sanitize=address,undefined -Db_lundef=false)
  export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1}
  export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
fi
[ -d "$dir" ] || meson setup "$dir" "${opts[@]}"
ninja -C "$dir"
meson test -C "$dir" --print-errorlogs --num-processes 2
