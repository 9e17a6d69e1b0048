#!/usr/bin/env bash
# Installs the Debian packages Teahouse needs, only those missing. Sourced by run.sh and test.sh.
# Usage: deps.sh build|test
set -euo pipefail

# libpq-dev: the PostgreSQL store backend (--db postgresql://…) is always built.
build_packages=(build-essential pkg-config meson ninja-build libuv1-dev libwebsockets-dev libjansson-dev
                libsqlite3-dev libsodium-dev libicu-dev libpq-dev check)
# fonts so the browser shows Latin and Chinese text; postgresql: the server programs (initdb,
# pg_ctl) the store's tests start a throwaway cluster with (tests/pg/with_cluster.sh); nginx: the
# proxy in front of several nodes (scripts/cluster.sh).
test_packages=(fonts-liberation fonts-wqy-microhei postgresql nginx)

packages=("${build_packages[@]}")
if [ "${1:-build}" = test ]; then
  packages+=("${test_packages[@]}")
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# The browser tests need Node.js with npm and Debian's Chromium. A machine may already have a
# Node.js from elsewhere (with its own npm): only install what no command provides.
if [ "${1:-build}" = test ]; then
  command -v node >/dev/null 2>&1 || missing+=(nodejs)
  command -v npm >/dev/null 2>&1 || missing+=(npm)
  [ -x /usr/bin/chromium ] || missing+=(chromium)
fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing: ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  # through env: sudo would drop DEBIAN_FRONTEND from the environment
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
