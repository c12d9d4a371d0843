#!/usr/bin/env bash
# The pet in GNOME Shell 48's top bar through the AppIndicator extension (Ubuntu's way), in the
# gnome48 Debian 13 root from scripts/debian-root.sh: the Shell headless as in check-gnome-shell.sh,
# with Debian's ubuntu-appindicators@ubuntu.com enabled and our own extension not (where ours is
# enabled the tray item hides itself). The build's daemon and `petctl tray` run inside the root
# from BIN-DIR mounted read-only on /opt/pet. Passes when the Shell shows the item (Eval, in the
# test-only unsafe mode), the screenshot OUT-DIR/gnome-appindicator.png shows the pet's blue in the
# top bar, and "Done" of a task, clicked in the AppIndicator's own menu through Eval, marks that
# task done in the daemon (ListTasks over busctl). As root.
#   usage: check-gnome-appindicator.sh BIN-DIR OUT-DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
[ $# -eq 2 ] || { echo "usage: $0 BIN-DIR OUT-DIR" >&2; exit 64; }
bin=$(realpath "$1") out=$(realpath -m "$2")
[ -x "$bin/petprogressd" ] && [ -x "$bin/petctl" ] || { echo "$0: need $bin/petprogressd and $bin/petctl" >&2; exit 1; }
probe=probe-unsafe@petprogress.test
appindicator=ubuntu-appindicators@ubuntu.com
# shellcheck source=scripts/desktop-root.sh
. "$here/desktop-root.sh"
enter_root gnome48

home=$root/home/tester
run=/tmp/xdg
rm -rf "$home/.local/share/gnome-shell/extensions"
mkdir -p "$home/.local/share/gnome-shell/extensions" "$home/petdata"
cp -r "$repo/Tests/Desktops/$probe" "$home/.local/share/gnome-shell/extensions/"
chroot "$root" chown -R tester:tester /home/tester
as_user() {
    chroot --userspec=tester:tester "$root" env -i PATH=/usr/bin:/bin HOME=/home/tester LANG=C.UTF-8 TZ=UTC \
        XDG_RUNTIME_DIR=$run XDG_SESSION_TYPE=wayland DBUS_SESSION_BUS_ADDRESS=unix:path=$run/bus "$@"
}
in_background() { as_user sh -c "exec $1 > /tmp/$2.log 2>&1" & disown; }

# A system bus and a fresh /run, as check-gnome-shell.sh explains.
mkdir -p "$root/run/dbus" "$root$run" "$root/tmp/shots"
chmod 1777 "$root/tmp/shots"
chroot "$root" dbus-daemon --system --fork
chmod 700 "$root$run"
chroot "$root" chown tester:tester $run
as_user dbus-daemon --session --address=unix:path=$run/bus --fork
for _ in $(seq 100); do [ -S "$root$run/bus" ] && break; sleep 0.1; done

as_user gsettings set org.gnome.shell enabled-extensions "['$probe', '$appindicator']"
as_user gsettings set org.gnome.desktop.interface enable-animations false
as_user gsettings set org.gnome.desktop.notifications show-banners false
in_background "gnome-shell --headless --virtual-monitor 1280x720 --wayland --no-x11" shell
as_user gdbus wait --session --timeout 120 org.gnome.Shell

# The daemon with two tasks, then the tray (which never starts the daemon itself).
in_background "/opt/pet/petprogressd --data-dir /home/tester/petdata" petprogressd
as_user gdbus wait --session --timeout 60 io.petprogress.PetProgress1
as_user /opt/pet/petctl add 15:00 'Write report' > /dev/null
as_user /opt/pet/petctl add 16:00 'Call the vet' > /dev/null
in_background "/opt/pet/petctl tray" petctl-tray

# Eval's reply is (true, 'JSON of the value'); the value, as text.
ev() {
    as_user gdbus call --session -d org.gnome.Shell -o /org/gnome/Shell -m org.gnome.Shell.Eval "$1" \
        | sed -n "s/^(true, '\"\?\(.*\)\"\?')\$/\1/p" | sed 's/"$//'
}
# The AppIndicator's button of the one item in the top bar, and every item of its menu.
find='const keys = Object.keys(Main.panel.statusArea).filter(k => k.startsWith("appindicator-"));
const button = keys.length === 1 ? Main.panel.statusArea[keys[0]] : null;
const walk = m => m._getMenuItems().flatMap(i => [i, ...(i.menu ? walk(i.menu) : [])]);
const items = button ? walk(button.menu) : [];
const task = items.find(i => i.menu && i.label && i.label.text.includes("Write report"));'
menu_ready() { [ "$(ev "$find; task ? task.menu._getMenuItems().map(i => i.label.text).join(\",\") : \"\"")" = "Done,Snooze" ]; }
for _ in $(seq 600); do menu_ready && break; sleep 0.1; done
menu_ready || { echo "gnome-appindicator: no item with the task's submenu in the top bar: $(ev "$find; keys.join(\" \") + \" | \" + items.map(i => i.label ? i.label.text : \"-\").join(\" | \")")" >&2; exit 1; }
echo "gnome-appindicator: the top bar shows the item; its menu: $(ev "$find; items.map(i => i.label ? i.label.text : \"-\").join(\" | \")")"
echo "gnome-appindicator: the label beside the icon: $(ev "$find; button._label ? button._label.text : \"(none)\"")"

# The pet in the top bar: its blue, polled while the icon loads.
shot() {
    as_user gdbus call --session -d org.gnome.Shell -o /org/gnome/Shell/Screenshot \
        -m org.gnome.Shell.Screenshot.Screenshot false false "/tmp/shots/$1" > /dev/null
    cp "$root/tmp/shots/$1" "$out/$1"
}
blue_in_bar() {
    shot gnome-appindicator.png
    /usr/bin/python3 - "$out/gnome-appindicator.png" <<'EOF'
import sys
from PIL import Image
bar = Image.open(sys.argv[1]).convert("RGB").crop((0, 0, 1280, 32))
blue = sum(1 for r, g, b in bar.getdata() if b > 150 and b > r + 60)
print(f"gnome-appindicator: {blue} blue pixels of the pet in the top bar")
sys.exit(0 if blue >= 30 else 1)
EOF
}
for _ in $(seq 30); do blue_in_bar > /dev/null && break; sleep 0.5; done
blue_in_bar || {
    echo "gnome-appindicator: the properties the extension holds: $(ev "$find; button._indicator._proxy.get_cached_property_names().join(\" \")")" >&2
    exit 1
}
ev "$find; button.menu.open(); task.menu.open(); 0" > /dev/null
sleep 1
shot gnome-appindicator-menu.png

# Done, clicked in the host's open menu with a virtual pointer (the extension reads the click's
# time from the event, so an item's activate() without one does not do): the daemon marks it done.
click='const done = task.menu._getMenuItems().find(i => i.label.text === "Done");
const [x, y] = done.get_transformed_position(), [w, h] = done.get_transformed_size();
const {Clutter} = imports.gi;
const pointer = global.stage.context.get_backend().get_default_seat()
    .create_virtual_device(Clutter.InputDeviceType.POINTER_DEVICE);
const now = GLib.get_monotonic_time();
pointer.notify_absolute_motion(now, x + w / 2, y + h / 2);
pointer.notify_button(now + 20000, Clutter.BUTTON_PRIMARY, Clutter.ButtonState.PRESSED);
pointer.notify_button(now + 40000, Clutter.BUTTON_PRIMARY, Clutter.ButtonState.RELEASED);
`clicked at ${Math.round(x + w / 2)},${Math.round(y + h / 2)}`'
clicked=$(ev "$find; $click")
case $clicked in clicked*) echo "gnome-appindicator: Done of \"Write report\" $clicked" ;; *)
    echo "gnome-appindicator: could not click Done: $(as_user gdbus call --session -d org.gnome.Shell -o /org/gnome/Shell -m org.gnome.Shell.Eval "$find; $click")" >&2
    exit 1 ;;
esac
done_in_daemon() {
    as_user busctl --user --json=short call io.petprogress.PetProgress1 /io/petprogress/PetProgress1 \
        io.petprogress.PetProgress1 ListTasks s "" | /usr/bin/python3 -c '
import json, sys
tasks = json.load(sys.stdin)["data"][0]
done = {t["title"]["data"]: t["done"]["data"] for t in tasks}
print(f"gnome-appindicator: the daemon'"'"'s tasks, done: {done}")
sys.exit(0 if done == {"Write report": True, "Call the vet": False} else 1)'
}
for _ in $(seq 50); do done_in_daemon > /dev/null && break; sleep 0.1; done
done_in_daemon
