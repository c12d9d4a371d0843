#!/usr/bin/env bash
# The GNOME Shell extension in a real GNOME Shell 48 (headless, Wayland, a virtual monitor) in a
# Debian 13 root from scripts/debian-root.sh: installed from `make gnome-extension`'s zip with
# `gnome-extensions install`, enabled with `gnome-extensions enable`, then driven through the
# Shell's own objects by contrib/gnome-shell/tests/shell.test.js (Eval, in the unsafe mode the
# test-only extension Tests/Desktops/probe-unsafe@petprogress.test turns on) and checked against
# the daemon. Then a new login in German: a new session bus and the Shell started with
# LANG=de_DE.UTF-8, where tests/shell-language.test.js reads the menu
# back in German, from the catalogue in the zip. The daemon under test runs inside the root, from
# BIN-DIR mounted read-only on /opt/pet.
# Screenshots and logs go to OUT-DIR. As root.
#   usage: check-gnome-shell.sh BIN-DIR EXTENSION-ZIP OUT-DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
[ $# -eq 3 ] || { echo "usage: $0 BIN-DIR EXTENSION-ZIP OUT-DIR" >&2; exit 64; }
bin=$(realpath "$1") zip=$(realpath "$2") out=$(realpath -m "$3")
[ -x "$bin/petprogressd" ] && [ -f "$zip" ] || { echo "$0: need $bin/petprogressd and $zip" >&2; exit 1; }
uuid=petprogress@petprogress.io
probe=probe-unsafe@petprogress.test
# shellcheck source=scripts/desktop-root.sh
. "$here/desktop-root.sh"
enter_root gnome48

home=$root/home/tester
run=/tmp/xdg
cp "$zip" "$home/$uuid.zip"
rm -rf "$home/.local/share/gnome-shell/extensions"
mkdir -p "$home/.local/share/gnome-shell/extensions"
cp -r "$repo/Tests/Desktops/$probe" "$home/.local/share/gnome-shell/extensions/"
# The pet icons where a per-user install puts them (make install PREFIX=~/.local).
icons=$home/.local/share/icons/hicolor
mkdir -p "$icons/scalable/apps" "$icons/512x512/apps" "$icons/symbolic/apps"
for svg in "$repo"/data/pets/pet_*.svg; do
    base=${svg##*/pet_} base=${base%.svg}
    cp "$svg" "$icons/scalable/apps/petprogress-$base.svg"
    cp "$repo/data/pets/pet_$base.png" "$icons/512x512/apps/petprogress-$base.png"
    cp "$repo/data/pets/symbolic/petprogress-$base-symbolic.svg" "$icons/symbolic/apps/"
done
# A stand-in handler for petprogress:// links (the real one opens a terminal): it notes the link.
mkdir -p "$home/.local/share/applications" "$home/.config"
printf '%s\n' '[Desktop Entry]' 'Type=Application' 'Name=Today (test)' \
    "Exec=sh -c 'echo \"\$1\" > /tmp/opened' sh %u" 'MimeType=x-scheme-handler/petprogress;' \
    > "$home/.local/share/applications/petprogress-test-today.desktop"
printf '%s\n' '[Default Applications]' 'x-scheme-handler/petprogress=petprogress-test-today.desktop' \
    > "$home/.config/mimeapps.list"
chroot "$root" chown -R tester:tester /home/tester
# As the user, inside the root, in the session.
as_user() {
    chroot --userspec=tester:tester "$root" env -i PATH=/usr/bin:/bin HOME=/home/tester LANG=C.UTF-8 TZ=UTC \
        XDG_RUNTIME_DIR=$run XDG_SESSION_TYPE=wayland DBUS_SESSION_BUS_ADDRESS=unix:path=$run/bus "$@"
}

# A system bus (the Shell aborts without one); a fresh /run has no /run/systemd/seats, so the
# Shell does not look for logind.
mkdir -p "$root/run/dbus" "$root$run" "$root/tmp/shots"
chmod 1777 "$root/tmp/shots"
chroot "$root" dbus-daemon --system --fork
chmod 700 "$root$run"
chroot "$root" chown tester:tester $run
# A session: its bus, then the Shell in the locale LANG names. Their PIDs
# are noted, so that the German login can end the English one.
start_session() {
    rm -f "$root$run/bus"
    as_user dbus-daemon --session --address=unix:path=$run/bus --fork --print-pid=1 > "$root/tmp/bus.pid"
    for _ in $(seq 100); do [ -S "$root$run/bus" ] && break; sleep 0.1; done
}
start_shell() {
    as_user env LANG="$1" sh -c 'echo $$ > /tmp/shell.pid
        exec gnome-shell --headless --virtual-monitor 1280x720 --wayland --no-x11 >> /tmp/shell.log 2>&1' &
    disown
    as_user gdbus wait --session --timeout 120 org.gnome.Shell
}
stop_pid() {
    local pid=$1
    kill -TERM "$pid" 2> /dev/null || return 0
    for _ in $(seq 200); do kill -0 "$pid" 2> /dev/null || return 0; sleep 0.05; done
    kill -KILL "$pid" 2> /dev/null || true
}
start_session

as_user gnome-extensions install --force "/home/tester/$uuid.zip"
as_user gsettings set org.gnome.shell enabled-extensions "['$probe']"
as_user gsettings set org.gnome.desktop.interface enable-animations false
# The "unsafe mode" banner would cover the top bar in the screenshots.
as_user gsettings set org.gnome.desktop.notifications show-banners false
rm -f "$root/tmp/shell.log"
start_shell C.UTF-8
as_user gnome-extensions enable "$uuid"

# The driver runs on this machine's gjs as the same uid, on the root's session bus; the daemon it
# starts (D-Bus activation, from a service file it writes) runs inside the root. Its sources are
# copied into the root's /tmp first: that uid cannot read a clone in root's own 0700 home.
rm -rf "$root/tmp/gnome-shell"
cp -r "$repo/contrib/gnome-shell" "$root/tmp/gnome-shell"
chmod -R a+rX "$root/tmp/gnome-shell"
drive() {
    setpriv --reuid=1000 --regid=1000 --clear-groups env -i PATH=/usr/bin:/bin LANG=C.UTF-8 TZ=UTC \
        HOME=/nonexistent DBUS_SESSION_BUS_ADDRESS="unix:path=$root$run/bus" PETPROGRESS_ROOT="$root" \
        timeout 300 gjs -m "$root/tmp/gnome-shell/tests/$1"
}
drive shell.test.js

echo "-- a new login in German: a new session bus, the Shell with LANG=de_DE.UTF-8"
# Debian 13's glibc ignores LANGUAGE under C.UTF-8 (Debian 12's honours it), and the root has no
# other locale: its own localedef compiles de_DE.UTF-8 from this machine's sources (package locales).
if ! chroot "$root" locale -a | grep -qx de_DE.utf8; then
    rm -rf "$root/tmp/i18n"
    mkdir -p "$root/tmp/i18n"
    cp -r /usr/share/i18n/locales /usr/share/i18n/charmaps "$root/tmp/i18n/"
    chroot "$root" env I18NPATH=/tmp/i18n localedef --no-archive -i de_DE -f UTF-8 de_DE.UTF-8
fi
stop_pid "$(cat "$root/tmp/shell.pid")"
stop_pid "$(cat "$root/tmp/bus.pid")"
# A runtime directory of its own, as a new login has.
run=/tmp/xdg-de
mkdir -p "$root$run"
chmod 700 "$root$run"
chroot "$root" chown tester:tester $run
start_session
start_shell de_DE.UTF-8
as_user gnome-extensions enable "$uuid"
drive shell-language.test.js
cp "$root"/tmp/shots/*.png "$out/"
