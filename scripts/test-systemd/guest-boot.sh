#!/bin/bash
# Stage 2 of the test-systemd guest, PID 1 for a moment: prepares the overlay root for systemd,
# then hands PID 1 over to it (exec). Adds the unit that runs guest-test.sh once the system is
# up and powers the guest off after it, and masks what this guest cannot or need not run: the
# host's PostgreSQL (for the JHE tier), time sync (no network), gettys (no terminals), timers,
# and emptying /tmp at boot (the host's /tmp, read over 9p, can hold thousands of entries).
# The host is a container image whose policy-rc.d forbids maintainer scripts to start services
# (exit 101); a box has none, and dpkg must start the service as it would there.
units=/etc/systemd/system
ln -sf /dev/null /etc/tmpfiles.d/tmp.conf
rm -f /usr/sbin/policy-rc.d
for unit in postgresql.service systemd-timesyncd.service getty@tty1.service serial-getty@ttyS0.service \
    apt-daily.timer apt-daily-upgrade.timer man-db.timer e2scrub_all.timer fstrim.timer dpkg-db-backup.timer; do
    ln -sf /dev/null "$units/$unit"
done
mkdir -p /out "$units/multi-user.target.wants"
cat > "$units/out.mount" <<UNIT
[Unit]
Description=The host's results directory (9p)
DefaultDependencies=no

[Mount]
What=out
Where=/out
Type=9p
Options=trans=virtio,version=9p2000.L,msize=512000
UNIT
cat > "$units/egw-systemd-test.service" <<UNIT
[Unit]
Description=edge-gateway under systemd: the test-systemd steps
Requires=out.mount
After=out.mount multi-user.target

[Service]
Type=oneshot
ExecStart=/bin/bash $(dirname "$0")/guest-test.sh
StandardOutput=append:/out/guest.log
StandardError=append:/out/guest.log
TimeoutStartSec=1500
ExecStopPost=/usr/bin/systemctl poweroff --no-block
UNIT
ln -sf "$units/egw-systemd-test.service" "$units/multi-user.target.wants/egw-systemd-test.service"
exec /lib/systemd/systemd --unit=multi-user.target
