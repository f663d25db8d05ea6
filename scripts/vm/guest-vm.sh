# Shared by the VM tiers (scripts/test-bluez, scripts/test-systemd): Debian's kernel under qemu
# (software emulation) on the host's root, mounted read-only over 9p with a tmpfs overlay on
# top. Source it, then call the functions; `set -euo pipefail` and `say` are the caller's.

# The newest Debian amd64 kernel installed, or a message and failure.
guest_kernel() {
    local version
    version=$(cd /lib/modules && ls -d *-amd64 2>/dev/null | sort -V | tail -1)
    [[ -n $version && -f /boot/vmlinuz-$version ]] || { echo "no Debian amd64 kernel in /boot" >&2; return 1; }
    echo "$version"
}

# Installs the Debian packages in "$@" that are missing.
ensure_packages() {
    local missing=() package
    for package in "$@"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
    done
    if ((${#missing[@]})); then
        echo "installing ${missing[*]}"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    fi
}

# Copies kernel modules $4… of kernel $2 and their dependencies into the initramfs tree $3
# (modules/NAME.ko, decompressed, and modules.order, dependencies first, for the init to insmod
# in order); $1 is the root whose /lib/modules holds them ("" for this machine's). Fails if
# modprobe does not know a module.
copy_initramfs_modules() {
    local base=$1 version=$2 initramfs=$3 module file name
    shift 3
    mkdir -p "$initramfs/modules"
    # modprobe --show-depends lists each module's dependencies first, as insmod lines.
    for module in "$@"; do
        modprobe ${base:+-d "$base"} -S "$version" --show-depends "$module" || return 1
    done | awk '$1 == "insmod" && !seen[$2]++ { print $2 }' | while read -r file; do
        name=$(basename "$file"); name=${name%%.ko*}
        case $file in
            *.ko) cp "$file" "$initramfs/modules/$name.ko" ;;
            *.ko.xz) xz -dc "$file" > "$initramfs/modules/$name.ko" ;;
            *.ko.zst) zstd -qdc "$file" > "$initramfs/modules/$name.ko" ;;
        esac
        echo "$name" >> "$initramfs/modules.order"
    done
}

# Writes the initramfs for kernel $1 to $2: static busybox, the modules a 9p + overlay root
# needs (dependencies first) and the stage-1 init (scripts/vm/initramfs-init.sh).
build_initramfs() {
    local version=$1 output=$2
    local initramfs
    initramfs=$(mktemp -d)
    mkdir -p "$initramfs"/{bin,dev,proc,sys,modules}
    cp /bin/busybox "$initramfs/bin/busybox"
    cp "$(dirname "${BASH_SOURCE[0]}")/initramfs-init.sh" "$initramfs/init"
    copy_initramfs_modules "" "$version" "$initramfs" virtio_pci 9pnet_virtio 9p overlay
    (cd "$initramfs" && find . | cpio -o -H newc --quiet | gzip -1) > "$output"
    rm -rf "$initramfs"
}

# How a kernel oops or BUG begins on the guest's console. A list corruption is reported as
# "list_del corruption" and then "kernel BUG at lib/list_debug.c:56", with no "BUG: " line:
# bookworm's 6.1 does that in hci_chan_del when bluetoothd closes an LE link's socket as the link
# goes (twice in one test-systemd run on 26 November 2026, which passed; a CI run's guest hung).
guest_oops_pattern='(BUG: |kernel BUG at |Oops: |general protection fault|list_(add|del) corruption)'

# Boots kernel $1 with initramfs $2 and hands over to the script $3 on the overlay root, with
# the directory $4 shared as 9p tag "out"; the console goes to $4/console.log. Returns when the
# guest powers off, after $5 seconds, or when its kernel has oopsed and nothing in $4 has
# changed for 300 s (qemu is then killed: an oops can leave a lock held and the guest hung).
# Further arguments go to qemu.
boot_guest() {
    local version=$1 initrd=$2 init=$3 out=$4 limit=$5
    shift 5
    : > "$out/console.log"
    timeout "$limit" qemu-system-x86_64 \
        -accel tcg -machine q35 -cpu max -smp 2 -m 1536 \
        -nodefaults -nographic -no-reboot -monitor none -serial "file:$out/console.log" \
        -kernel "/boot/vmlinuz-$version" -initrd "$initrd" \
        -append "console=ttyS0 panic=-1 loglevel=4 no_timer_check egw_init=$init" \
        -virtfs "local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap" \
        -virtfs "local,path=$out,mount_tag=out,security_model=none,multidevs=remap" "$@" &
    local qemu=$! started last
    started=$(date +%s)
    while kill -0 "$qemu" 2> /dev/null; do
        sleep 5
        guest_kernel_oopsed "$out" || continue
        # The console itself changes as the oops is printed: progress is the guest's own files.
        last=$(find "$out" -maxdepth 2 -type f ! -name console.log -printf '%T@\n' | sort -n | tail -1)
        last=${last%.*}
        if ((${last:-$started} + 300 < $(date +%s))); then
            say "the guest's kernel oopsed and the guest has written nothing for 300 s: stopping it"
            kill "$qemu" 2> /dev/null || true
        fi
    done
    wait "$qemu" || true
}

# Whether the guest's kernel oopsed during the boot whose output is in $1 (console.log).
guest_kernel_oopsed() {
    grep -qE "^\[ *[0-9.]+\] $guest_oops_pattern" "$1/console.log" 2> /dev/null
}

# Whether the guest in $1 ran to its end (its init wrote $1/finished) and every step exited 0.
guest_steps_passed() {
    [[ -f $1/finished ]] && ! grep -Lx 0 "$1"/*.rc 2> /dev/null | grep -q .
}

# Boots as boot_guest does. Should the guest's kernel oops and a step fail (or the guest not
# finish), boots it once more: an oops is a bug of Debian's kernel, not of what the guest runs,
# and can leave the guest's Bluetooth stack broken for the rest of the boot (seen 24 November
# 2026: a NULL dereference in smp_chan_create while bluetoothd stopped, after which it could not
# start again). A boot whose steps all passed despite an oops stands, with the oops recorded in
# $4/retries. Otherwise the first boot's output is kept in $4.oops, the files $4 held before it
# are copied back, and the retry is recorded in $4/retries. Each boot has the limit $5.
boot_guest_again_after_oops() {
    local out=$4 inputs oops
    inputs=$(ls -A "$out")
    boot_guest "$@"
    guest_kernel_oopsed "$out" || return 0
    oops=$(grep -m1 -oE "$guest_oops_pattern.*" "$out/console.log")
    if guest_steps_passed "$out"; then
        say "the guest's kernel oopsed ($oops); every step passed regardless"
        echo "vm: the guest's kernel oopsed ($oops); every step passed regardless" >> "$out/retries"
        return 0
    fi
    say "the guest's kernel oopsed ($oops) and the guest did not pass every step; booting once more"
    rm -rf "$out.oops"
    mv "$out" "$out.oops"
    mkdir -p "$out"
    local name
    for name in $inputs; do cp -a "$out.oops/$name" "$out/"; done
    echo "vm attempt 1: the guest's kernel oopsed ($(grep -m1 -oE 'RIP: .*' "$out.oops/console.log")); output kept in $out.oops" >> "$out/retries"
    boot_guest "$@"
}
