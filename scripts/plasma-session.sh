# Sourced, not run: what check-plasma.sh and check-plasma-widget.sh share in the plasma6 Debian
# root — the session's buses and X display, kded6's StatusNotifierWatcher, petctl's item among the
# watcher's, and screenshots of the display. The caller has entered the root (desktop-root.sh sets
# `root`) and set `run` (the user's XDG_RUNTIME_DIR inside the root, where the session bus listens),
# and defines `as_user CMD…` (CMD as the user in the session, display :99, bus $run/bus) and
# `in_background CMD NAME` (CMD as the user in the background, its output in the root's
# /tmp/NAME.log).
# shellcheck shell=bash disable=SC2154 # root and run are the caller's

# The system bus, the user's session bus, and Xvfb :99 at SIZE (WIDTHxHEIGHT), each waited for.
start_session() {  # SIZE
    chroot "$root" dbus-daemon --system --fork
    as_user dbus-daemon --session --address=unix:path=$run/bus --fork
    for _ in $(seq 100); do [ -S "$root$run/bus" ] && break; sleep 0.1; done
    # Services the bus starts need the display too.
    as_user dbus-update-activation-environment --all
    in_background "Xvfb :99 -screen 0 $1x24 -nolisten tcp" xvfb
    for _ in $(seq 100); do [ -S "$root/tmp/.X11-unix/X99" ] && break; sleep 0.1; done
}

# kded6 with its StatusNotifierWatcher module, which it loads by itself only in a full KDE session.
start_watcher() {
    in_background kded6 kded6
    as_user gdbus wait --session --timeout 60 org.kde.kded6
    as_user gdbus call --session -d org.kde.kded6 -o /kded -m org.kde.kded6.loadModule statusnotifierwatcher > /dev/null
}

# The items the watcher lists.
items() {
    as_user gdbus call --session -d org.kde.StatusNotifierWatcher -o /StatusNotifierWatcher \
        -m org.freedesktop.DBus.Properties.Get org.kde.StatusNotifierWatcher RegisteredStatusNotifierItems
}

# The registered item whose bus name petctl owns (the root shares the host's PIDs).
pet_item() {
    local name pid
    for name in $(items | grep -oE 'org\.kde\.StatusNotifierItem-[0-9]+-[0-9]+'); do
        pid=$(as_user gdbus call --session -d org.freedesktop.DBus -o /org/freedesktop/DBus \
            -m org.freedesktop.DBus.GetConnectionUnixProcessID "$name" | grep -oE '[0-9]+' | tail -1)
        [ "$(cat "/proc/$pid/comm" 2> /dev/null)" = petctl ] && { echo "$name"; return 0; }
    done
    return 1
}

# The display as PNG: all of it, the part GEOMETRY gives (xdotool getwindowgeometry --shell's
# X= Y= WIDTH= HEIGHT=, on one line), or only that part's right RIGHT pixels.
screen_png() {  # PNG [GEOMETRY [RIGHT]]
    as_user sh -c 'xwd -root -silent > /tmp/screen.xwd'
    /usr/bin/python3 - "$root/tmp/screen.xwd" "$@" <<'PY'
import struct, sys
from PIL import Image
# xwd's dump: a big-endian header, the window name, the colour map, then the pixels (32 bits each,
# in the server's byte order: Xvfb here is little-endian, so B, G, R and, at 32 bits, one unused).
data = open(sys.argv[1], "rb").read()
header = struct.unpack(">25I", data[:100])
size, width, height, order, bits, stride, colours = (header[i] for i in (0, 4, 5, 7, 11, 12, 19))
assert bits in (24, 32) and order == 0, f"unexpected xwd layout: {bits} bits per pixel, byte order {order}"
image = Image.frombuffer("RGB", (width, height), data[size + 12 * colours:], "raw", "BGRX" if bits == 32 else "BGR", stride, 1)
if len(sys.argv) > 3:
    g = dict(kv.split("=") for kv in sys.argv[3].split())
    x, y, w, h = (int(g[k]) for k in ("X", "Y", "WIDTH", "HEIGHT"))
    left = x + w - int(sys.argv[4]) if len(sys.argv) > 4 else x
    image = image.crop((left, y, x + w, y + h))
image.save(sys.argv[2])
PY
}

# How many pixels of PNG satisfy TEST, a Python expression of `p`, the pixel's (R, G, B).
pixels() {  # PNG TEST
    /usr/bin/python3 -c '
import sys
from PIL import Image
test = eval("lambda p: " + sys.argv[2])
print(sum(1 for p in Image.open(sys.argv[1]).convert("RGB").getdata() if test(p)))' "$1" "$2"
}
