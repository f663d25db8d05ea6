#!/bin/bash
# make test-systemd: the .deb under a real systemd. Boots Debian's kernel under qemu on the
# host's root (scripts/vm), where guest-boot.sh hands PID 1 to systemd and guest-test.sh runs
# as a unit once the system is up: dpkg -i of the package built from EGW_BIN/edge-gateway, the
# real bluetoothd with two btvirt controllers, pair, enrol against the lab's JHE stand-in on the
# guest's loopback, and the service started, killed and stopped by systemd. Every step must
# exit 0; on failure the logs are printed and the work directory is kept.
#
# Environment: EGW_BIN (edge-gateway as shipped, edge-gateway-lab, edge-gateway-peripheral;
# default: scripts/tier-binaries.sh's), EGW_VM_TIMEOUT (seconds for the guest,
# default 1800), EGW_KEEP (keep the work directory).
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$(pwd)
here=$repo/scripts/test-systemd
started=$SECONDS

say() { echo "test-systemd: $*"; }

# shellcheck source=../vm/guest-vm.sh
. "$repo/scripts/vm/guest-vm.sh"
ensure_packages qemu-system-x86 linux-image-amd64 bluez bluez-test-tools busybox-static kmod dbus-daemon \
    systemd dbus dpkg-dev
say "packages ready after $((SECONDS - started)) s"
kernel_version=$(guest_kernel)

work=$(mktemp -d /tmp/test-systemd.XXXXXX)
cleanup() { if [[ -n ${EGW_KEEP:-} ]]; then say "kept $work"; else rm -rf "$work"; fi; }
trap cleanup EXIT

if [[ -z ${EGW_BIN:-} ]]; then
    EGW_BIN=$work/bin
    scripts/tier-binaries.sh "$EGW_BIN"
fi
EGW_BIN=$(realpath "$EGW_BIN")

out=$work/out
mkdir -p "$out/deb"
scripts/build-deb.sh --binary "$EGW_BIN/edge-gateway" --output "$out/deb" > "$work/build-deb.log"
say "package $(basename "$out"/deb/*.deb), binaries from $EGW_BIN, ready after $((SECONDS - started)) s"
build_initramfs "$kernel_version" "$work/initrd.gz"
cat > "$out/env" <<ENV
EGW_BIN=$EGW_BIN
EGW_FRAMES=$repo/scripts/test-bluez/frames.txt
EGW_MAX_ATTEMPTS=${EGW_MAX_ATTEMPTS:-5}
EGW_INTERVAL_MS=${EGW_INTERVAL_MS:-500}
ENV

say "booting $kernel_version under qemu (TCG) with systemd as PID 1"
boot_started=$SECONDS
boot_guest_again_after_oops "$kernel_version" "$work/initrd.gz" "$here/guest-boot.sh" "$out" "${EGW_VM_TIMEOUT:-1800}"
say "guest ran for $((SECONDS - boot_started)) s"

# The verdicts are gathered first and printed last, after any logs, so that the end of the
# output (what a CI page shows) says which step failed and why.
status=0
summary=()
if [[ ! -f $out/finished ]]; then
    summary+=("FAILED: the guest did not finish its steps (stopped at its limit of ${EGW_VM_TIMEOUT:-1800} s, or hung after a kernel oops); guest.log shows the last step started")
    status=1
fi
steps=(pid1 stack install configure enrol pair service kill9 watchdog bluetooth_restart bluetooth_crash upgrade stop security purge_keeps purge_removes)
for name in "${steps[@]}"; do
    rc=$(cat "$out/$name.rc" 2>/dev/null || echo "not run")
    seconds=$(cat "$out/$name.seconds" 2>/dev/null || echo "?")
    if [[ $rc == 0 ]]; then
        summary+=("$(printf '%-17s ok (%s s): %s' "$name" "$seconds" "$(tail -n 1 "$out/$name.out")")")
    else
        summary+=("$(printf '%-17s FAILED (%s) after %s s: %s' "$name" "$rc" "$seconds" "$(tail -n 3 "$out/$name.out" 2>/dev/null | paste -sd '|')")")
        status=1
    fi
done
# pair must not lean on the strap's agent, bluetoothd's default agent in this guest: it brings
# its own, and the strap's agent answers only for the strap's side (hci1).
if grep -q "pairing with an agent of its own" "$out/pair.err" 2>/dev/null \
    && ! grep '"event":"agent"' "$out/peripheral.jsonl" | grep -v '"device":"/org/bluez/hci1/' | grep -q .; then
    summary+=("pair answered bluetoothd with its own agent; the strap's agent was asked only about the strap's side")
else
    summary+=("FAILED: pair did not use its own agent, or the strap's agent answered for the gateway's side")
    status=1
fi
# systemd-analyze security under the real PID 1 must agree with the offline check make test runs.
# (|| true: a step that never ran leaves no output, and the verdicts must still be printed.)
offline=$(systemd-analyze security --offline=yes deploy/edge-gateway.service 2>/dev/null | tail -1 | grep -o 'level for [^:]*: [0-9.]*' | awk '{print $NF}' || true)
online=$(grep -o 'level for [^:]*: [0-9.]*' "$out/security.out" 2>/dev/null | awk '{print $NF}' || true)
if [[ -n $offline && $offline == "$online" ]]; then
    summary+=("exposure under systemd $online, the same as the offline check")
else
    summary+=("FAILED: exposure under systemd '${online}', offline '${offline}'")
    status=1
fi
[[ -f $out/journal-edge-gateway.txt ]] && summary+=("libdispatch's 'Failed to set thread priority' lines: $(grep -c "Failed to set thread priority" "$out/journal-edge-gateway.txt" || true) (its nice -4 request, refused without CAP_SYS_NICE: one per daemon start)")
[[ -f $out/bluetoothd-restarts ]] && summary+=("bluetoothd back on the bus $(wc -l < "$out/bluetoothd-restarts") time(s) after the stack step")
[[ -f $out/retries ]] && summary+=("retries: $(wc -l < "$out/retries") ($(paste -sd ';' "$out/retries"))")
if ((status)); then
    for log in guest.log console.log journal-edge-gateway.txt; do
        [[ -f $out/$log ]] && { echo "---- $log (last 60 lines)"; tail -n 60 "$out/$log"; }
    done
    for name in "${steps[@]}"; do
        [[ -s $out/$name.err ]] && { echo "---- $name.err (last 20 lines)"; tail -n 20 "$out/$name.err"; }
    done
    EGW_KEEP=1
fi
for line in "${summary[@]}"; do say "$line"; done
say "total $((SECONDS - started)) s"
exit "$status"
