#!/usr/bin/env bash
# Plasma 6's system tray (plasmawindowed org.kde.plasma.systemtray, under Xvfb) in a Debian 13 root
# from scripts/debian-root.sh, showing a StatusNotifierItem: the test item Tests/Desktops/sni.py (a
# red square with a yellow centre). Passes when the item registers with kded6's watcher, the tray
# is a StatusNotifierHost, and the screenshot (OUT-DIR/plasma-tray.png) shows the item's colours.
# As root.
#   usage: check-plasma.sh OUT-DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
[ $# -eq 1 ] || { echo "usage: $0 OUT-DIR" >&2; exit 64; }
out=$(realpath -m "$1")

root=$(bash "$here/debian-root.sh" ensure plasma6)
finish() {
    local rc=$?
    cp "$root"/tmp/*.log "$out/" 2> /dev/null || true
    bash "$here/debian-root.sh" stop plasma6 || rc=1
    exit $rc
}
trap finish EXIT
bash "$here/debian-root.sh" mount plasma6
rm -rf "$out"
mkdir -p "$out"
cp "$repo/Tests/Desktops/sni.py" "$root/home/tester/sni.py"

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
in_background "python3 /home/tester/sni.py" sni
registered() { grep -q 'sni: registered' "$root/tmp/sni.log" 2> /dev/null; }
for _ in $(seq 300); do registered && break; sleep 0.1; done
registered || { echo "plasma: the test item did not register: $(cat "$root/tmp/sni.log")" >&2; exit 1; }
hosts() {
    as_user gdbus call --session -d org.kde.StatusNotifierWatcher -o /StatusNotifierWatcher \
        -m org.freedesktop.DBus.Properties.Get org.kde.StatusNotifierWatcher IsStatusNotifierHostRegistered
}
for _ in $(seq 300); do hosts | grep -q true && break; sleep 0.1; done
hosts | grep -q true || { echo "plasma: the tray never registered as a StatusNotifierHost" >&2; exit 1; }

# The tray draws the item: its red and yellow in the screenshot, polled while the tray lays out.
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
red = sum(1 for r, g, b in pixels if r > 200 and g < 60 and b < 60)
yellow = sum(1 for r, g, b in pixels if r > 230 and 180 < g < 240 and b < 60)
print(f"plasma: {red} red and {yellow} yellow pixels of the test item in {sys.argv[2]}")
sys.exit(0 if red >= 30 and yellow >= 30 else 1)
EOF
}
for _ in $(seq 30); do shows_item > /dev/null && break; sleep 0.5; done
shows_item
