#!/usr/bin/env bash
# Plasma 6's system tray (plasmawindowed org.kde.plasma.systemtray, under Xvfb) in a Debian 13 root
# from scripts/debian-root.sh, showing the pet: the build's `petctl tray` beside the build's daemon
# (BIN-DIR mounted read-only on /opt/pet, with the toolchain's Swift runtime a debug build loads).
# Passes when kded6's watcher lists petctl's item, the tray is a StatusNotifierHost, and the
# screenshot (OUT-DIR/plasma-tray.png) shows the pet's blue (the Tadpole, drawn from the item's
# IconPixmap: no pet icons are installed in the root). As root.
#   usage: check-plasma.sh BIN-DIR OUT-DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
[ $# -eq 2 ] || { echo "usage: $0 BIN-DIR OUT-DIR" >&2; exit 64; }
bin=$(realpath "$1") out=$(realpath -m "$2")
[ -x "$bin/petprogressd" ] && [ -x "$bin/petctl" ] || { echo "$0: need $bin/petprogressd and $bin/petctl" >&2; exit 1; }

# shellcheck source=scripts/desktop-root.sh
. "$here/desktop-root.sh"
# shellcheck source=scripts/plasma-session.sh
. "$here/plasma-session.sh"
enter_root plasma6

run=/tmp/xdg
mkdir -p "$root/run/dbus" "$root$run"
chroot "$root" chown tester:tester $run
chmod 700 "$root$run"
# As the user, inside the root, in the session. PLASMA_PRELOAD_POLICY=none (the word): preloading
# the Camera Indicator crashes the tray; kded6 loads its watcher module only in a KDE session.
as_user() {
    chroot --userspec=tester:tester "$root" env -i PATH=/usr/bin:/bin HOME=/home/tester LANG=C.UTF-8 TZ=UTC \
        XDG_RUNTIME_DIR=$run DBUS_SESSION_BUS_ADDRESS=unix:path=$run/bus DISPLAY=:99 QT_QPA_PLATFORM=xcb \
        XDG_CURRENT_DESKTOP=KDE KDE_FULL_SESSION=true KDE_SESSION_VERSION=6 PLASMA_PRELOAD_POLICY=none "$@"
}
# Every exec: the PID the shell sees is the command's own.
in_background() { as_user sh -c "exec $1 > /tmp/$2.log 2>&1" & disown; }

start_session 800x400
start_watcher
in_background "plasmawindowed org.kde.plasma.systemtray" tray
# The pet: the daemon with a task, then `petctl tray` (which never starts the daemon itself).
as_user mkdir -p /home/tester/petdata
in_background "/opt/pet/petprogressd --data-dir /home/tester/petdata" petprogressd
as_user gdbus wait --session --timeout 60 io.petprogress.PetProgress1
as_user /opt/pet/petctl add 15:00 'Write report' > /dev/null
in_background "/opt/pet/petctl tray" petctl-tray
for _ in $(seq 300); do pet_item > /dev/null && break; sleep 0.1; done
pet=$(pet_item) || { echo "plasma: petctl tray did not register: $(items) $(cat "$root/tmp/petctl-tray.log")" >&2; exit 1; }
echo "plasma: kded6's watcher lists petctl tray ($pet)"
hosts() {
    as_user gdbus call --session -d org.kde.StatusNotifierWatcher -o /StatusNotifierWatcher \
        -m org.freedesktop.DBus.Properties.Get org.kde.StatusNotifierWatcher IsStatusNotifierHostRegistered
}
for _ in $(seq 300); do hosts | grep -q true && break; sleep 0.1; done
hosts | grep -q true || { echo "plasma: the tray never registered as a StatusNotifierHost" >&2; exit 1; }

# The tray draws the pet: its blue in the screenshot, polled while the tray lays out.
shot=$out/plasma-tray.png
shows_item() {
    local blue
    screen_png "$shot"
    blue=$(pixels "$shot" 'p[2] > 150 and p[2] > p[0] + 60')
    echo "plasma: $blue blue pixels of the pet in $shot"
    [ "$blue" -ge 30 ]
}
for _ in $(seq 30); do shows_item > /dev/null && break; sleep 0.5; done
shows_item
