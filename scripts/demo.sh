#!/usr/bin/env bash
# make demo: the gateway's main job on simulated straps, as far as it exists today.
# A private bus with a simulated bluetoothd and three straps; then the technician's workflow:
# scan, pair (binds a strap to a demo patient), live (samples as the daemon will receive them).
set -euo pipefail
gateway="$1"
state=$(mktemp -d /tmp/edge-gateway-demo-XXXXXX)
sim_out="$state/simulate.txt"

"$gateway" simulate --sensors 3 > "$sim_out" &
simulator=$!
trap 'kill -TERM "$simulator" 2>/dev/null; wait "$simulator" 2>/dev/null; rm -rf "$state"' EXIT
for _ in $(seq 1 100); do [ -s "$sim_out" ] && break; sleep 0.1; done
export "$(head -1 "$sim_out")"

step() { printf '\n\033[1m$ edge-gateway %s\033[0m\n' "$*"; "$gateway" "$@" --state-dir "$state"; }

echo "Simulated bluetoothd on a private bus: $DBUS_SYSTEM_BUS_ADDRESS"
step scan --timeout 3
step pair F0:1D:2E:3C:00:01 --alias "bed 1" --patient 40006
step sensors
step live --count 10
printf '\n\033[1m$ edge-gateway decode 104ed202c802 "10 3e b1 03 de" 10\033[0m\n'
"$gateway" decode 104ed202c802 "10 3e b1 03 de" 10 || true
echo
echo "Done. Next: the daemon (edge-gateway run) will store these samples in the offline queue and upload them."
