#!/bin/bash
# Builds btvirt, bluez 5.66's virtual controllers (Debian bookworm's bluez), with
# second-link.patch: a central's second LE link then works, so one adapter can hold two straps.
# btdev.c gives each end of a link the first handle free on that end alone, and forwards
# events and ACL data under the local handle: a central's second link gets, say, handle 43 at
# the central and 42 at the strap, and the strap's controller then drops every ATT reply
# (bluetoothd: "MTU Exchange failed", device_svc_resolved err -5). The patch takes the first
# handle free on both ends. The source is Debian's orig tarball, checked against its SHA-256;
# only btvirt's files are compiled (no autotools, libc alone), in about 10 s.
#
# usage: scripts/test-bluez/btvirt/build.sh OUTPUT   (the binary; cached by the patch's hash)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
output=$1
version=5.66
sha256=a231fb9d151780edf6d2536c81914e2dbd3daa36b68f486badaf98a7f34021e4
cache=${XDG_CACHE_HOME:-$HOME/.cache}/edge-gateway-btvirt
tarball=$cache/bluez_$version.orig.tar.xz
built=$cache/btvirt-$version-$(sha256sum "$here/second-link.patch" "$0" | sha256sum | cut -c1-12)
mkdir -p "$cache"
if [[ ! -x $built ]]; then
    if ! echo "$sha256  $tarball" | sha256sum --check --status 2>/dev/null; then
        curl -sSfL --retry 3 -o "$tarball.part" "http://deb.debian.org/debian/pool/main/b/bluez/bluez_$version.orig.tar.xz"
        echo "$sha256  $tarball.part" | sha256sum --check --status || { echo "btvirt: $tarball: SHA-256 mismatch" >&2; exit 1; }
        mv "$tarball.part" "$tarball"
    fi
    source=$(mktemp -d)
    trap 'rm -rf "$source"' EXIT
    tar -xJf "$tarball" -C "$source" --strip-components=1 "bluez-$version/emulator" "bluez-$version/lib" \
        "bluez-$version/monitor" "bluez-$version/src/shared"
    patch -s -d "$source" -p1 < "$here/second-link.patch"
    (cd "$source" && gcc -O2 -Wall -I. -Ilib -DVERSION="\"$version\"" -o "$built.part" \
        emulator/{main,serial,server,vhci,btdev,bthost,smp,phy,amp,le}.c \
        src/shared/{mainloop,mainloop-notify,io-mainloop,timeout-mainloop,queue,util,crypto,ecc}.c lib/bluetooth.c)
    mv "$built.part" "$built"
fi
install -m 0755 "$built" "$output"
