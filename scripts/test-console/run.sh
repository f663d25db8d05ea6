#!/bin/bash
# make test-console: the console in a real browser (Debian's chromium, driven by Playwright for
# Python) against the daemon on the simulated bluetoothd: the live heart rate, the chart, a
# link drop and its return, a hostile strap name, the security headers, a foreign Host refused;
# then beyond loopback (TLS, a password): the login, its brake, the cookie, CSRF, logout.
# Installs chromium and Playwright if missing. Screenshots go to $EGW_CONSOLE_OUT (default
# .build/test-console). Uses the debug build (make test builds it).
set -euo pipefail
cd "$(dirname "$0")/../.."
say() { echo "test-console: $*"; }
started=$SECONDS
scripts/install-deps.sh chromium
python3 -c "import playwright" 2>/dev/null || python3 -m pip install --quiet "playwright==1.65.0" 2>&1 | grep -v "as the 'root' user" || true
swift build --product edge-gateway > /dev/null
swift build --product edge-gateway-lab > /dev/null
bin=$(swift build --show-bin-path)
out=${EGW_CONSOLE_OUT:-.build/test-console}
mkdir -p "$out"
work=$(mktemp -d /tmp/test-console.XXXXXX)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2> /dev/null || true; done
    wait 2> /dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
say "tools ready after $((SECONDS - started)) s"

"$bin/edge-gateway-lab" simulate --sensors 2 --interval-ms 500 --print-address > "$work/sim.txt" 2> "$work/sim.err" &
pids+=($!)
for _ in $(seq 1 100); do [[ $(wc -l < "$work/sim.txt") -ge 3 ]] && break; sleep 0.2; done
export "$(head -1 "$work/sim.txt")"
mapfile -t straps < <(tail -n +2 "$work/sim.txt")
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat > "$work/gateway.toml" << TOML
[gateway]
name = "ward 3"
state_dir = "$work/state"
hold_until_clock_sync = false
[web]
listen = "127.0.0.1:$port"
TOML
hostile='<img src=x onerror="document.title=1">bed & "1"'
"$bin/edge-gateway-lab" jhe-simulator --port 0 > "$work/jhe.txt" 2>&1 &
pids+=($!)
for _ in $(seq 1 100); do grep -q "^invitation link: " "$work/jhe.txt" && break; sleep 0.2; done
"$bin/edge-gateway" enroll "$(sed -n 's/^invitation link: //p' "$work/jhe.txt")" --config "$work/gateway.toml" > /dev/null
"$bin/edge-gateway" pair "${straps[0]}" --config "$work/gateway.toml" --alias "$hostile" --patient 40001 --no-bond > /dev/null
"$bin/edge-gateway" pair "${straps[1]}" --config "$work/gateway.toml" --alias "bed 2" --patient 40001 --no-bond > /dev/null
"$bin/edge-gateway" run --config "$work/gateway.toml" > "$work/daemon.log" 2>&1 &
pids+=($!)
daemon=$!
status=0
python3 scripts/test-console/console.py "http://127.0.0.1:$port" "$DBUS_SYSTEM_BUS_ADDRESS" "${straps[0]}" "$hostile" "$out" || status=$?

# Beyond loopback: the same daemon on all addresses, with TLS and a password.
if ((status == 0)); then
    kill "$daemon"
    wait "$daemon" || true
    tls_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    sed -i "s/^listen = .*/listen = \"0.0.0.0:$tls_port\"/" "$work/gateway.toml"
    password="console test $RANDOM$RANDOM"
    printf '%s\n' "$password" | "$bin/edge-gateway" web set-password --password-stdin --config "$work/gateway.toml" > /dev/null
    "$bin/edge-gateway" run --config "$work/gateway.toml" >> "$work/daemon.log" 2>&1 &
    pids+=($!)
    for _ in $(seq 1 100); do
        python3 -c "import socket; socket.create_connection(('127.0.0.1', $tls_port), 1)" 2> /dev/null && break
        sleep 0.2
    done
    fingerprint=$("$bin/edge-gateway" status --json --config "$work/gateway.toml" | python3 -c 'import json, sys; print(json.load(sys.stdin)["console"]["certificate_sha256"])')
    python3 scripts/test-console/console-tls.py "https://127.0.0.1:$tls_port" "$password" "$fingerprint" "$out" || status=$?
fi
if ((status)); then
    echo "---- daemon.log (last 40 lines)"
    tail -n 40 "$work/daemon.log"
fi
say "total $((SECONDS - started)) s"
exit "$status"
