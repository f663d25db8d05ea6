#!/usr/bin/env bash
# Installs the Debian packages the build and the tests need, skipping those already present.
# Usage: scripts/install-deps.sh [EXTRA_PACKAGE ...]
set -euo pipefail

packages=(
  pkg-config
  libdbus-1-dev      # D-Bus client library (BlueZ is reached over D-Bus)
  libsqlite3-dev     # offline queue
  libcurl4-openssl-dev
  libssl-dev         # the console's TLS and password hash (OpenSSL, which libcurl4 already brings)
  curl               # the HTTPS client of the console's TLS tests
  dbus-daemon        # private buses for the process-level tests
  python3-dbus python3-gi libglib2.0-bin systemd   # other D-Bus clients (python-dbus, gdbus, busctl) in compatibility tests
  ca-certificates
  dpkg-dev           # dpkg-shlibdeps: the .deb's Depends: (make deb and its tests)
  procps             # kill(1), the unit's ExecReload (systemd-analyze verify checks it exists)
  prometheus         # promtool: the alerting rules and the dashboard's queries (scripts/check-monitoring)
  "$@"
)

missing=()
for package in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$package")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

sudo=()
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || { echo "install-deps: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
  sudo=(sudo)
fi
echo "install-deps: installing ${missing[*]}"
"${sudo[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
