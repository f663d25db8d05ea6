#!/usr/bin/env bash
# Installs a built edge-gateway and its systemd integration. Safe to run again (upgrades the
# binary and the unit, never touches an existing /etc/edge-gateway/gateway.toml).
#
# Usage: deploy/install.sh [--binary FILE] [--prefix DIR] [--destdir DIR] [--config-example FILE]
#   --binary FILE          the edge-gateway to install (default: .build-ship/release/edge-gateway,
#                          what `make deb` builds)
#   --prefix DIR           /usr (default) or e.g. /usr/local; ExecStart follows it
#   --destdir DIR          stage into DIR instead of / (also $DESTDIR); then nothing is run
#   --config-example FILE  the configuration installed when none exists
#                          (default: deploy/gateway.toml.example)
#
# Installs:
#   PREFIX/bin/edge-gateway                               0755
#   PREFIX/lib/systemd/system/edge-gateway.service        0644
#   PREFIX/lib/systemd/system/bluetooth.service.d/edge-gateway.conf  0644 (restart bluetoothd
#                                                          when it crashes)
#   PREFIX/lib/sysusers.d/edge-gateway.conf               0644
#   PREFIX/lib/tmpfiles.d/edge-gateway.conf               0644
#   PREFIX/share/doc/edge-gateway/{README.md,INSTALL.md,LICENSE,gateway.toml.example}  0644
#   PREFIX/share/doc/edge-gateway/docs/{operations,configuration,deployment,SECURITY}.md  0644
#   PREFIX/share/doc/edge-gateway/monitoring/edge-gateway.{rules.yml,grafana.json}  0644
#   /etc/edge-gateway/gateway.toml                        0644, only if absent
# Then, without a destdir: systemd-sysusers (user edge-gateway in group bluetooth),
# systemd-tmpfiles (/var/lib/edge-gateway, 0700), and `systemctl daemon-reload` if systemd runs.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
binary="$repo/.build-ship/release/edge-gateway"
prefix=/usr
destdir=${DESTDIR:-}
config_example="$repo/deploy/gateway.toml.example"

fail() { echo "install: $*" >&2; exit 1; }

while [[ $# -gt 0 ]]; do
  [[ $# -ge 2 ]] || fail "$1 needs a value (see the usage at the top of $0)"
  case "$1" in
    --binary) binary=$2 ;;
    --prefix) prefix=$2 ;;
    --destdir) destdir=$2 ;;
    --config-example) config_example=$2 ;;
    *) fail "unknown option $1 (see the usage at the top of $0)" ;;
  esac
  shift 2
done

[[ "$prefix" == /* ]] || fail "--prefix must be an absolute path, not '$prefix'"
[[ -x "$binary" ]] || fail "no executable at $binary: build it first (make deb) or pass --binary FILE"
[[ -f "$config_example" ]] || fail "no example configuration at $config_example (pass --config-example FILE)"
if [[ -z "$destdir" && $(id -u) -ne 0 ]]; then
  fail "installing into / needs root: run it with sudo, or stage it with --destdir DIR"
fi

root=${destdir%/}
unit_dir="$root$prefix/lib/systemd/system"
doc_dir="$root$prefix/share/doc/edge-gateway"
config="$root/etc/edge-gateway/gateway.toml"

install -D -m 0755 "$binary" "$root$prefix/bin/edge-gateway"
install -d -m 0755 "$unit_dir"
sed -e "s|/usr/bin/edge-gateway|$prefix/bin/edge-gateway|" \
    -e "s|/usr/share/doc/edge-gateway|$prefix/share/doc/edge-gateway|" \
    "$repo/deploy/edge-gateway.service" > "$unit_dir/edge-gateway.service.new"
chmod 0644 "$unit_dir/edge-gateway.service.new"
mv -f "$unit_dir/edge-gateway.service.new" "$unit_dir/edge-gateway.service"
install -D -m 0644 "$repo/deploy/bluetooth.service.d/edge-gateway.conf" "$unit_dir/bluetooth.service.d/edge-gateway.conf"
install -D -m 0644 "$repo/deploy/sysusers.d/edge-gateway.conf" "$root$prefix/lib/sysusers.d/edge-gateway.conf"
install -D -m 0644 "$repo/deploy/tmpfiles.d/edge-gateway.conf" "$root$prefix/lib/tmpfiles.d/edge-gateway.conf"
install -D -m 0644 "$repo/README.md" "$doc_dir/README.md"
install -D -m 0644 "$repo/deploy/INSTALL.md" "$doc_dir/INSTALL.md"
install -D -m 0644 "$repo/LICENSE" "$doc_dir/LICENSE"
# The references the README and INSTALL.md link to for operating the box.
for page in operations configuration deployment SECURITY; do
    install -D -m 0644 "$repo/docs/$page.md" "$doc_dir/docs/$page.md"
done
install -D -m 0644 "$config_example" "$doc_dir/gateway.toml.example"
# For a fleet's Prometheus and Grafana (docs/operations.md, "Alerting for a fleet").
install -D -m 0644 "$repo/deploy/prometheus/edge-gateway.rules.yml" "$doc_dir/monitoring/edge-gateway.rules.yml"
install -D -m 0644 "$repo/deploy/grafana/edge-gateway.json" "$doc_dir/monitoring/edge-gateway.grafana.json"

install -d -m 0755 "$root/etc/edge-gateway"
if [[ -e "$config" ]]; then
  echo "install: kept the existing $config (the new defaults are in $doc_dir/gateway.toml.example)"
else
  install -m 0644 "$config_example" "$config"
  echo "install: wrote $config from the example: edit it, then start the service"
fi

if [[ -n "$destdir" ]]; then
  echo "install: staged into $destdir (no user created, systemd not told)"
  exit 0
fi

systemd-sysusers "$prefix/lib/sysusers.d/edge-gateway.conf"
systemd-tmpfiles --create "$prefix/lib/tmpfiles.d/edge-gateway.conf"
if [[ -d /run/systemd/system ]]; then
  systemctl daemon-reload
  if systemctl --quiet is-active edge-gateway.service; then
    echo "install: edge-gateway is running the old binary: systemctl restart edge-gateway"
  else
    echo "install: next: enrol and bind straps (docs/operations.md, \"Technician workflow\"), then systemctl enable --now edge-gateway"
  fi
else
  echo "install: systemd is not running here: the unit is installed but not loaded"
fi
