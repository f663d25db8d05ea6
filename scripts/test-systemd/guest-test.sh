#!/bin/bash
# The test-systemd guest's steps, run by egw-systemd-test.service once systemd (PID 1) has
# brought the system up: the project's .deb installed with dpkg as a technician would, on the
# real bluetoothd (bluetooth.service) with two btvirt controllers, the strap paired with
# `edge-gateway pair`, the gateway enrolled against the lab's JHE stand-in on loopback, and the
# service run, killed, hung and stopped by systemd. Each step leaves NAME.out, NAME.err and
# NAME.rc in /out; run.sh checks them.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root LANG=C.UTF-8
# shellcheck source=/dev/null
. /out/env
# shellcheck source=../vm/guest-lib.sh
. "$(dirname "$0")/../vm/guest-lib.sh"

as_service() { runuser -u edge-gateway -- edge-gateway "$@"; }
unit_property() { systemctl show edge-gateway -P "$1"; }
unit_running() { test "$(unit_property ActiveState)/$(unit_property SubState)" = active/running; }
# Samples JHE has stored, by the daemon's status report (in its runtime directory, linked from
# the state directory).
delivered() {
    python3 -c 'import json; print(sum(s["samplesDelivered"] for s in json.load(open("/var/lib/edge-gateway/status.json"))["sensors"]))' \
        2>/dev/null || echo 0
}
restarted() { test "$(unit_property NRestarts)" -ge 1; }
delivered_at_least() { (($(delivered) >= $1)); }

# systemd is PID 1 and the system came up (running, or degraded with the failed units listed).
pid1() {
    echo "pid 1: $(cat /proc/1/comm)"
    test "$(cat /proc/1/comm)" = systemd || return 1
    timeout 300 systemctl is-system-running --wait
    systemctl --failed --no-legend --plain
}

# bluetooth.service (Debian's unit, the system bus with Debian's policy) and two btvirt LE
# controllers, both powered.
stack() {
    modprobe hci_vhci || return 1
    systemctl start bluetooth.service || return 1
    wait_for 60 bluez_on_bus || return 1
    systemd-run --unit=btvirt --quiet btvirt -l2 -L || return 1
    wait_for 120 adapter_property hci0 Address && wait_for 60 adapter_property hci1 Address || return 1
    retrying power-hci0 "hci0 power-on timed out" power_on hci0 && retrying power-hci1 "hci1 power-on timed out" power_on hci1 || return 1
    adapter_property hci1 Address | cut -d'"' -f2 > /out/peripheral-address
}

# dpkg -i: the user, the unit enabled (and started: not yet enrolled, it waits), the conffile.
install() {
    dpkg -i /out/deb/*.deb || return 1
    id edge-gateway
    systemctl is-enabled edge-gateway
    ls -l /etc/edge-gateway/gateway.toml /var/lib/edge-gateway -d
    wait_for 60 unit_running
    echo "after install: $(unit_property ActiveState)/$(unit_property SubState)"
}

# The technician's edits to the conffile: this guest's clock never reports itself synchronised.
configure() {
    sed -i 's/^#* *hold_until_clock_sync *=.*/hold_until_clock_sync = false/' /etc/edge-gateway/gateway.toml
    grep -q '^hold_until_clock_sync = false' /etc/edge-gateway/gateway.toml \
        || printf '\n[gateway]\nhold_until_clock_sync = false\n' >> /etc/edge-gateway/gateway.toml
    as_service config check
}

enrol() {
    systemd-run --unit=jhe --quiet "$EGW_BIN/edge-gateway-lab" jhe-simulator --port 8000 || return 1
    wait_for 120 bash -c 'journalctl -u jhe -o cat | grep -q "invitation link: "' || return 1
    as_service enroll "$(journalctl -u jhe -o cat | sed -n 's/^invitation link: //p' | head -1)"
}

pair() {
    start_peripheral 0 --loop || return 1
    as_service pair "$(cat /out/peripheral-address)" --alias "bed 1" --json --verbose --timeout 60
}

# The service picks up the enrolment and the binding, and samples reach the server.
service() {
    systemctl restart edge-gateway || return 1
    wait_for 120 unit_running || return 1
    wait_for 240 delivered_at_least 10 || { echo "delivered: $(delivered)"; return 1; }
    echo "delivered: $(delivered); main pid $(unit_property MainPID), user $(ps -o user= -p "$(unit_property MainPID)")"
    journalctl -u edge-gateway -o json --no-pager | python3 -c 'import json, sys
levels = sorted({json.loads(line).get("PRIORITY") for line in sys.stdin})
print("journal priorities:", " ".join(levels))'
}

# kill -9 of the main process: systemd restarts it and delivery goes on.
kill9() {
    local pid before
    pid=$(unit_property MainPID)
    before=$(delivered)
    kill -9 "$pid" || return 1
    wait_for 60 restarted || return 1
    wait_for 120 unit_running || return 1
    wait_for 240 delivered_at_least $((before + 10)) || { echo "delivered: $(delivered), before: $before"; return 1; }
    echo "restarted: pid $pid -> $(unit_property MainPID), restarts $(unit_property NRestarts), delivered $before -> $(delivered)"
}

# systemctl stop: exit 0, and the queue is still readable and intact.
stop() {
    systemctl stop edge-gateway || return 1
    echo "result $(unit_property Result), status $(unit_property ExecMainStatus)"
    test "$(unit_property ExecMainStatus)" = 0 || return 1
    as_service queue stats --json
}

security() {
    systemd-analyze security edge-gateway --no-pager | tail -1
}

log "guest up under systemd: kernel $(uname -r)"
if step pid1 pid1 && step stack stack && step install install; then
    for name in configure enrol pair service kill9 stop security; do step "$name" "$name"; done
fi
kill "${PERIPHERAL_PID:-}" 2>/dev/null
echo done > /out/finished
log "guest done"
