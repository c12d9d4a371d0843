#!/usr/bin/env bash
# The tray item in XFCE's panel (run by make test): xfce4-panel with its notification-area plugin
# (systray, which hosts StatusNotifierItems since 4.15) under Xvfb, `petctl tray` and the real
# daemon on a private bus. Checks that the panel's watcher lists the item and that the pet is
# drawn in the panel, in its own colours (xfce-tray.png, kept in OUT when given).
#
# The picture is Xvfb's screen memory (-fbdir), not `xwd -root`: GetImage on the root is undefined
# where windows of another depth cover it (the protocol's words), and here it gave the panel's
# 32-bit notification area with its channels rotated pixel by pixel (vertical red, green and blue
# stripes over any item, the pet or a plain red test square alike) while the screen showed them
# right.
#
#   scripts/check-tray-xfce.sh [BUILD_DIR [OUT]]
set -euo pipefail

me="check-tray-xfce"
repo=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$repo/.build/debug}" && pwd)
out=${2:-}
# shellcheck source=scripts/headless-session.sh
. "$repo/scripts/headless-session.sh"
need_tools xfce4-panel Xvfb busctl python3 setpriv dbus-daemon
session_init

# One panel along the top holding only the notification area: no first-run dialog.
conf="$work/home/.config/xfce4/xfconf/xfce-perchannel-xml"
mkdir -p "$conf"
cat >"$conf/xfce4-panel.xml" <<'XML'
<?xml version="1.0" encoding="UTF-8"?>
<channel name="xfce4-panel" version="1.0">
  <property name="configver" type="int" value="2"/>
  <property name="panels" type="array">
    <value type="int" value="1"/>
    <property name="panel-1" type="empty">
      <property name="position" type="string" value="p=6;x=0;y=0"/>
      <property name="length" type="uint" value="100"/>
      <property name="position-locked" type="bool" value="true"/>
      <property name="size" type="uint" value="32"/>
      <property name="plugin-ids" type="array"><value type="int" value="1"/></property>
    </property>
  </property>
  <property name="plugins" type="empty">
    <property name="plugin-1" type="string" value="systray"/>
  </property>
</channel>
XML
mkdir -p "$work/fb"
own_work
[ "$(id -u)" != 0 ] || chown 65534:65534 "$work/fb"

[ "$(id -u)" != 0 ] || [ -d /tmp/.X11-unix ] || install -d -m 1777 /tmp/.X11-unix
n=90
while [ -e "/tmp/.X$n-lock" ] || [ -e "/tmp/.X11-unix/X$n" ]; do n=$((n + 1)); done
start xvfb Xvfb ":$n" -screen 0 640x120x24 -nolisten tcp -fbdir "$work/fb"
wait_for 10 test -S "/tmp/.X11-unix/X$n"
user_env+=(DISPLAY=":$n")

start_bus
start_daemon --now 2026-03-02T13:10:00+01:00
petctl add 15:00 'Write report' >/dev/null
start panel xfce4-panel --disable-wm-check
start_tray
pass "xfce4-panel's watcher lists the item"

# The screen (Xvfb keeps it as an XWD file) to PNG: a 24-bit TrueColor ZPixmap, 32 bits per pixel.
shot() {
    cp "$work/fb/Xvfb_screen0" "$work/shots/screen.xwd"
    /usr/bin/python3 - "$work/shots/screen.xwd" "$work/shots/xfce-tray.png" <<'PY'
import struct, sys
from PIL import Image
data = open(sys.argv[1], "rb").read()
h = struct.unpack(">25I", data[:100])
header, width, height, bpl, ncolors = h[0], h[4], h[5], h[12], h[19]
start = header + ncolors * 12
img = Image.frombuffer("RGBX", (width, height), data[start:start + bpl * height], "raw", "BGRX", bpl, 1)
img.convert("RGB").crop((0, 0, width, 40)).save(sys.argv[2])
PY
}
# Drawn: the pet's blue (the Tadpole) in the panel, and in its own colours: none of the strong reds
# and greens that channels out of place make of it.
drawn() {
    shot
    /usr/bin/python3 -c 'import sys; from PIL import Image
img = Image.open(sys.argv[1]).convert("RGB")
blue = sum(1 for r, g, b in img.getdata() if b > 150 and b > r + 60)
stray = sum(1 for r, g, b in img.getdata() if max(r, g) > 150 and max(r, g) > b + 60)
print(f"{blue} blue pixels, {stray} strong red or green")
sys.exit(0 if blue >= 20 and stray == 0 else 1)' "$work/shots/xfce-tray.png"
}
wait_for 30 drawn >/dev/null
[ -z "$out" ] || cp "$work/shots/xfce-tray.png" "$out/xfce-tray.png"
pass "the pet is drawn in xfce4-panel's notification area, in its colours ($(drawn))"
echo "$passed passed, 0 failed"
