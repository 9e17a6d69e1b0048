#!/usr/bin/env bash
# Runs the browser tests (`node --test tests/browser/`) against the teahouse binary given as $1.
# Exits 77, which meson counts as skipped, when node, Debian's Chromium or the npm packages
# (node_modules/playwright-core, from `npm ci`) are missing.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
server="$(realpath "$1")"

if ! command -v node >/dev/null 2>&1; then
  echo "node is not installed: skipping the browser tests (apt-get install nodejs npm)"
  exit 77
fi
if [ ! -x /usr/bin/chromium ]; then
  echo "/usr/bin/chromium is missing: skipping the browser tests (apt-get install chromium)"
  exit 77
fi
if [ ! -d "$root/node_modules/playwright-core" ]; then
  echo "node_modules/playwright-core is missing: skipping the browser tests (run npm ci at $root)"
  exit 77
fi

cd "$root"
# meson shows only the end of a long log, so the failures are told again at the end
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
set +e
TEAHOUSE_SERVER="$server" node --test tests/browser/ 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e
if [ "$status" -ne 0 ]; then
  echo "=== the browser tests that failed ==="
  grep -A 24 -E '^ *not ok ' "$log" | grep -v -E '^ *(duration_ms|type):' | head -90
fi
exit "$status"
