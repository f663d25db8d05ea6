#!/bin/bash
# make test-bluez: the gateway against the real Bluetooth stack. Boots Debian's kernel under
# qemu (software emulation) on the host's root (read-only 9p + tmpfs overlay), where
# guest-init.sh brings up bluetoothd with two btvirt LE controllers, a heart-rate peripheral
# (edge-gateway-peripheral) on hci1, and runs the release edge-gateway on hci0: scan, pair,
# live. check-results.py then checks what each step printed. See README, "Real BlueZ test tier".
#
# Environment: EGW_BIN (binaries to test; default: a release build in .build-release),
# EGW_VM_TIMEOUT (seconds for the whole guest, default 1500), EGW_KEEP (keep the work dir).
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$(pwd)
here=$repo/scripts/test-bluez
started=$SECONDS

say() { echo "test-bluez: $*"; }

packages=(qemu-system-x86 linux-image-amd64 bluez bluez-test-tools busybox-static kmod dbus-daemon)
missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if ((${#missing[@]})); then
    say "installing ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
say "packages ready after $((SECONDS - started)) s"

kernel_version=$(cd /lib/modules && ls -d *-amd64 2>/dev/null | sort -V | tail -1)
[[ -n $kernel_version && -f /boot/vmlinuz-$kernel_version ]] || { say "no Debian amd64 kernel in /boot"; exit 1; }

if [[ -z ${EGW_BIN:-} ]]; then
    for product in edge-gateway edge-gateway-lab edge-gateway-peripheral; do
        swift build -c release --scratch-path .build-release --product "$product"
    done
    EGW_BIN=$(swift build -c release --scratch-path .build-release --show-bin-path)
fi
EGW_BIN=$(realpath "$EGW_BIN")
say "binaries from $EGW_BIN, ready after $((SECONDS - started)) s"

work=$(mktemp -d /tmp/test-bluez.XXXXXX)
qemu_pid=
cleanup() {
    [[ -n $qemu_pid ]] && kill "$qemu_pid" 2>/dev/null
    if [[ -n ${EGW_KEEP:-} ]]; then say "kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

# The initramfs: static busybox, the modules a 9p + overlay root needs (dependencies first),
# and the stage-1 init.
initramfs=$work/initramfs
mkdir -p "$initramfs"/{bin,dev,proc,sys,modules}
cp /bin/busybox "$initramfs/bin/busybox"
cp "$here/initramfs-init.sh" "$initramfs/init"
# modprobe --show-depends lists each module's dependencies first, as insmod lines.
for module in virtio_pci 9pnet_virtio 9p overlay; do
    modprobe -S "$kernel_version" --show-depends "$module"
done | awk '$1 == "insmod" && !seen[$2]++ { print $2 }' | while read -r file; do
    name=$(basename "$file"); name=${name%%.ko*}
    case $file in
        *.ko) cp "$file" "$initramfs/modules/$name.ko" ;;
        *.ko.xz) xz -dc "$file" > "$initramfs/modules/$name.ko" ;;
        *.ko.zst) zstd -qdc "$file" > "$initramfs/modules/$name.ko" ;;
    esac
    echo "$name" >> "$initramfs/modules.order"
done
(cd "$initramfs" && find . | cpio -o -H newc --quiet | gzip -1) > "$work/initrd.gz"

out=$work/out
mkdir -p "$out"
cat > "$out/env" <<ENV
EGW_BIN=$EGW_BIN
EGW_FRAMES=$here/frames.txt
EGW_MAX_ATTEMPTS=${EGW_MAX_ATTEMPTS:-5}
EGW_INTERVAL_MS=${EGW_INTERVAL_MS:-500}
EGW_STEP_TIMEOUT=${EGW_STEP_TIMEOUT:-300}
ENV

say "booting $kernel_version under qemu (TCG)"
boot_started=$SECONDS
timeout "${EGW_VM_TIMEOUT:-1500}" qemu-system-x86_64 \
    -accel tcg -machine q35 -cpu max -smp 2 -m 1536 \
    -nodefaults -nographic -no-reboot -monitor none -serial "file:$out/console.log" \
    -kernel "/boot/vmlinuz-$kernel_version" -initrd "$work/initrd.gz" \
    -append "console=ttyS0 panic=-1 loglevel=4 no_timer_check egw_init=$here/guest-init.sh" \
    -virtfs "local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap" \
    -virtfs "local,path=$out,mount_tag=out,security_model=none,multidevs=remap" &
qemu_pid=$!
wait "$qemu_pid" || true
qemu_pid=
say "guest ran for $((SECONDS - boot_started)) s"

status=0
python3 "$here/check-results.py" "$out" "$here/frames.txt" || status=$?
if ((status)); then
    for log in guest.log console.log bluetoothd.log peripheral-stderr.log; do
        [[ -f $out/$log ]] && { echo "---- $log (last 40 lines)"; tail -n 40 "$out/$log"; }
    done
    EGW_KEEP=1
fi
say "total $((SECONDS - started)) s"
exit "$status"
