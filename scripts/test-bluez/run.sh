#!/bin/bash
# make test-bluez: the gateway against the real Bluetooth stack. Boots Debian's kernel under
# qemu (software emulation) on the host's root (read-only 9p + tmpfs overlay), where
# guest-init.sh brings up bluetoothd with five btvirt LE controllers (bluez 5.66's, patched by
# btvirt/build.sh so a central holds two links), a heart-rate peripheral
# (edge-gateway-peripheral) on hci1, and runs the shipped edge-gateway on hci0: scan, pair,
# live, the daemon; then the daemon on hci0 and hci2, two slots each, with straps on hci1, hci3
# and hci4. check-results.py then checks what each step printed. See docs/testing.md, "make test-bluez".
#
# Environment: EGW_BIN (edge-gateway, edge-gateway-lab, edge-gateway-peripheral; default:
# scripts/tier-binaries.sh's, the gateway as shipped and the lab's debug build),
# EGW_VM_TIMEOUT (seconds for the whole guest, default 1500), EGW_KEEP (keep the work dir).
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$(pwd)
here=$repo/scripts/test-bluez
started=$SECONDS

say() { echo "test-bluez: $*"; }

# shellcheck source=../vm/guest-vm.sh
. "$repo/scripts/vm/guest-vm.sh"
ensure_packages qemu-system-x86 linux-image-amd64 bluez busybox-static kmod dbus-daemon gcc libc6-dev curl xz-utils patch
say "packages ready after $((SECONDS - started)) s"
kernel_version=$(guest_kernel)

work=$(mktemp -d /tmp/test-bluez.XXXXXX)
cleanup() {
    if [[ -n ${EGW_KEEP:-} ]]; then say "kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

if [[ -z ${EGW_BIN:-} ]]; then
    EGW_BIN=$work/bin
    scripts/tier-binaries.sh "$EGW_BIN"
fi
EGW_BIN=$(realpath "$EGW_BIN")
scripts/test-bluez/btvirt/build.sh "$work/btvirt"
say "binaries from $EGW_BIN and btvirt (bluez 5.66 patched), ready after $((SECONDS - started)) s"

build_initramfs "$kernel_version" "$work/initrd.gz"

out=$work/out
mkdir -p "$out"
cat > "$out/env" <<ENV
EGW_BIN=$EGW_BIN
EGW_BTVIRT=$work/btvirt
EGW_FRAMES=$here/frames.txt
EGW_MAX_ATTEMPTS=${EGW_MAX_ATTEMPTS:-5}
EGW_INTERVAL_MS=${EGW_INTERVAL_MS:-500}
EGW_STEP_TIMEOUT=${EGW_STEP_TIMEOUT:-300}
ENV

say "booting $kernel_version under qemu (TCG)"
boot_started=$SECONDS
boot_guest_again_after_oops "$kernel_version" "$work/initrd.gz" "$here/guest-init.sh" "$out" "${EGW_VM_TIMEOUT:-1500}"
say "guest ran for $((SECONDS - boot_started)) s"

status=0
python3 "$here/check-results.py" "$out" "$here/frames.txt" || status=$?
if ((status)); then
    # A failed step's own words first: its standard error says why (CI keeps only this output).
    for rc_file in "$out"/*.rc; do
        [[ $(cat "$rc_file") == 0 ]] && continue
        step=$(basename "$rc_file" .rc)
        [[ -f $out/$step.err ]] && { echo "---- $step.err (last 30 lines)"; tail -n 30 "$out/$step.err"; }
    done
    for log in guest.log console.log bluetoothd.log peripheral-stderr.log; do
        [[ -f $out/$log ]] && { echo "---- $log (last 40 lines)"; tail -n 40 "$out/$log"; }
    done
    EGW_KEEP=1
fi
say "total $((SECONDS - started)) s"
exit "$status"
