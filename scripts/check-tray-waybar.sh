#!/usr/bin/env bash
# The tray item in a real host (run by make test): `petctl tray` beside waybar's tray module
# (waybar's own StatusNotifierWatcher and host) in a headless sway, the real daemon on a private
# bus. Checks, with screenshots kept in OUT (default: none kept):
#   the pet is drawn in the tray (tray.png)
#   a left click through the virtual pointer calls Activate: xdg-open runs the petprogress://
#     handler, a stub .desktop handler that records its argument
#   a right click opens the item's menu, drawn below the bar (tray-menu.png)
#
#   scripts/check-tray-waybar.sh [BUILD_DIR [OUT]]
# Needs sway, waybar, grim, busctl, python3 (PIL), xdg-utils.
set -euo pipefail

me="check-tray-waybar"
repo=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$repo/.build/debug}" && pwd)
out=${2:-}
# shellcheck source=scripts/headless-session.sh
. "$repo/scripts/headless-session.sh"
need_tools sway swaymsg waybar grim busctl python3 setpriv dbus-daemon xdg-open
session_init

width=640
shot() { # NAME GEOMETRY: a screenshot into the work directory (and OUT when given)
    run_as grim -g "$2" "$work/shots/$1.png"
    [ -z "$out" ] || cp "$work/shots/$1.png" "$out/$1.png"
}
# Prints the x of the middle of the rightmost drawn thing in the bar (the tray's one item), or
# nothing: a column counts when it has pixels far from the bar's own colour.
item_x() {
    shot bar "0,0 ${width}x30"
    /usr/bin/python3 - "$work/shots/bar.png" <<'PY'
import sys
from PIL import Image
img = Image.open(sys.argv[1]).convert("RGB")
w, h = img.size
bg = img.getpixel((w // 2, h // 2))
cols = [x for x in range(w) if sum(1 for y in range(h) if sum(abs(a - b) for a, b in zip(img.getpixel((x, y)), bg)) > 90) >= 3]
if cols:
    right = cols[-1]
    left = right
    while left - 1 in cols: left -= 1
    print((left + right) // 2)
PY
}

start_bus
start_daemon --now 2026-03-02T13:10:00+01:00
petctl add 15:00 'Write report' >/dev/null
petctl add 18:00 'Water the plants' >/dev/null

# The stub handler of petprogress:// (xdg-open finds it through the user's mimeapps.list).
mkdir -p "$work/home/.local/share/applications"
cat >"$work/bin/stub-handler" <<SH
#!/bin/sh
echo "\$@" >>"$work/data/opened"
SH
chmod 0755 "$work/bin/stub-handler"
printf '[Desktop Entry]\nType=Application\nName=Stub\nExec=%s %%u\nMimeType=x-scheme-handler/petprogress;\n' \
    "$work/bin/stub-handler" >"$work/home/.local/share/applications/stub-petprogress.desktop"
printf '[Default Applications]\nx-scheme-handler/petprogress=stub-petprogress.desktop\n' \
    >"$work/home/.config/mimeapps.list"
printf '{"layer": "top", "position": "top", "height": 30, "modules-right": ["tray"], "tray": {"icon-size": 22}}\n' \
    >"$work/home/.config/waybar/config"
own_work

start_sway "${width}x300"
start_pointer

start waybar waybar
start_tray
pass "waybar's watcher lists the item"
x=""
drawn() { x=$(item_x) && [ -n "$x" ]; }
wait_for 30 drawn
sleep 0.5
shot tray "$((width - 200)),0 200x30"
pass "the pet is drawn in waybar's tray (x=$x)"

opened() { [ -s "$work/data/opened" ]; }
click "$x" button1
wait_for 20 opened
[ "$(cat "$work/data/opened")" = "petprogress://today" ] || fail "the handler got: $(cat "$work/data/opened")"
pass "left click: Activate opened petprogress://today through the handler"

click "$x" button3
menu_open() { # the menu is drawn below the bar, where sway's background was plain
    shot below "$((width - 260)),30 260x270"
    /usr/bin/python3 -c 'import sys; from PIL import Image
img = Image.open(sys.argv[1]).convert("RGB")
sys.exit(0 if len(set(img.getdata())) > 8 else 1)' "$work/shots/below.png"
}
wait_for 20 menu_open
sleep 0.5
shot tray-menu "$((width - 300)),0 300x300"
pass "right click: the menu is open"
echo "$passed passed, 0 failed"
