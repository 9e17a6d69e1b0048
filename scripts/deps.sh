#!/usr/bin/env bash
# Installs the Debian packages Teahouse needs, only those missing. Sourced by run.sh and test.sh.
# Usage: deps.sh build|test
set -euo pipefail

build_packages=(build-essential pkg-config meson ninja-build libuv1-dev libwebsockets-dev libjansson-dev
                libsqlite3-dev libsodium-dev check)
test_packages=()

packages=("${build_packages[@]}")
if [ "${1:-build}" = test ]; then
  packages+=("${test_packages[@]}")
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing: ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
