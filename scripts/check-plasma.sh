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

chroot "$root" dbus-daemon --system --fork
as_user dbus-daemon --session --address=unix:path=$run/bus --fork
for _ in $(seq 100); do [ -S "$root$run/bus" ] && break; sleep 0.1; done
# Services the bus starts need the display too.
as_user dbus-update-activation-environment --all
in_background "Xvfb :99 -screen 0 800x400x24 -nolisten tcp" xvfb
for _ in $(seq 100); do [ -S "$root/tmp/.X11-unix/X99" ] && break; sleep 0.1; done
in_background kded6 kded6
as_user gdbus wait --session --timeout 60 org.kde.kded6
as_user gdbus call --session -d org.kde.kded6 -o /kded -m org.kde.kded6.loadModule statusnotifierwatcher > /dev/null
in_background "plasmawindowed org.kde.plasma.systemtray" tray
# The pet: the daemon with a task, then `petctl tray` (which never starts the daemon itself).
as_user mkdir -p /home/tester/petdata
in_background "/opt/pet/petprogressd --data-dir /home/tester/petdata" petprogressd
as_user gdbus wait --session --timeout 60 io.petprogress.PetProgress1
as_user /opt/pet/petctl add 15:00 'Write report' > /dev/null
in_background "/opt/pet/petctl tray" petctl-tray
items() {
    as_user gdbus call --session -d org.kde.StatusNotifierWatcher -o /StatusNotifierWatcher \
        -m org.freedesktop.DBus.Properties.Get org.kde.StatusNotifierWatcher RegisteredStatusNotifierItems
}
# The registered item whose bus name petctl owns.
pet_item() {
    local name pid
    for name in $(items | grep -oE 'org\.kde\.StatusNotifierItem-[0-9]+-[0-9]+'); do
        pid=$(as_user gdbus call --session -d org.freedesktop.DBus -o /org/freedesktop/DBus \
            -m org.freedesktop.DBus.GetConnectionUnixProcessID "$name" | grep -oE '[0-9]+' | tail -1)
        [ "$(cat "/proc/$pid/comm" 2> /dev/null)" = petctl ] && { echo "$name"; return 0; }
    done
    return 1
}
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
    as_user sh -c 'xwd -root -silent > /tmp/tray.xwd'
    /usr/bin/python3 - "$root/tmp/tray.xwd" "$shot" <<'EOF'
import struct, sys
from PIL import Image
# xwd's dump: a big-endian header, the window name, the colour map, then the pixels (32 bits each,
# in the server's byte order: Xvfb here is little-endian, so B, G, R and, at 32 bits, one unused).
data = open(sys.argv[1], "rb").read()
header = struct.unpack(">25I", data[:100])
size, width, height, order, bits, stride, colours = (header[i] for i in (0, 4, 5, 7, 11, 12, 19))
assert bits in (24, 32) and order == 0, f"unexpected xwd layout: {bits} bits per pixel, byte order {order}"
raw = "BGRX" if bits == 32 else "BGR"
image = Image.frombuffer("RGB", (width, height), data[size + 12 * colours:], "raw", raw, stride, 1)
image.save(sys.argv[2])
pixels = list(image.getdata())
blue = sum(1 for r, g, b in pixels if b > 150 and b > r + 60)
print(f"plasma: {blue} blue pixels of the pet in {sys.argv[2]}")
sys.exit(0 if blue >= 30 else 1)
EOF
}
for _ in $(seq 30); do shows_item > /dev/null && break; sleep 0.5; done
shows_item
