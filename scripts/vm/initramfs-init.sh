#!/bin/busybox sh
# Stage 1 of a VM-tier guest (runs from the initramfs scripts/vm/guest-vm.sh builds): loads the modules
# the 9p root needs, mounts the host's root read-only with a tmpfs overlay on top, and hands
# over to the tier's guest script on that root (its path comes from the kernel command line, egw_init=).
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
for module in $(cat /modules.order); do
    insmod "/modules/$module.ko" || echo "stage1: insmod $module failed"
done
mkdir -p /lower /rw /newroot
mount -t 9p -o trans=virtio,version=9p2000.L,ro,msize=512000,cache=loose hostroot /lower || {
    echo "stage1: cannot mount the host root over 9p"; echo o > /proc/sysrq-trigger; }
mount -t tmpfs -o size=768m,mode=0755 rw /rw
mkdir -p /rw/upper /rw/work
mount -t overlay -o lowerdir=/lower,upperdir=/rw/upper,workdir=/rw/work overlay /newroot || {
    echo "stage1: cannot mount the overlay"; echo o > /proc/sysrq-trigger; }
mount --move /dev /newroot/dev
umount /proc /sys
exec switch_root /newroot /bin/bash "$egw_init"
