#!/usr/bin/env bash
# The GNOME Shell extension's tests (`make test` runs them): a lint of its JavaScript, the zip
# `make gnome-extension` builds, the Shell-free modules' unit tests, and the D-Bus client under
# plain gjs against the real daemon on a private dbus-daemon. The Shell UI (extension.js) needs
# Shell 45 or later, which Debian 12 lacks: scripts/check-gnome-shell.sh runs it in GNOME Shell 48.
#   usage: run.sh PATH-TO-petprogressd
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
ext=$(cd "$here/../petprogress@petprogress.io" && pwd)
daemon=$(realpath "${1:?usage: run.sh PATH-TO-petprogressd}")
[ -x "$daemon" ] || { echo "run.sh: $daemon is not an executable daemon" >&2; exit 1; }

tmp=$(mktemp -d /tmp/petprogress-gnome.XXXXXX)
chmod 0700 "$tmp"
bus_pid=""
# Stops every process the tests started, by PID (the gjs tests note theirs in $tmp/pids), then
# the bus, and removes the directory.
cleanup() {
    local pids
    pids=$(cat "$tmp/pids" 2>/dev/null || true)
    for pid in $pids; do kill -TERM "$pid" 2>/dev/null || true; done
    [ -n "$bus_pid" ] && kill -TERM "$bus_pid" 2>/dev/null || true
    sleep 0.2
    for pid in $pids $bus_pid; do kill -KILL "$pid" 2>/dev/null || true; done
    rm -rf "$tmp"
}
trap cleanup EXIT

# A home of the tests' own: nothing reads or writes the real user's files or session bus.
export HOME="$tmp/home" XDG_RUNTIME_DIR="$tmp/runtime" XDG_CONFIG_HOME="$tmp/home/.config" \
    XDG_DATA_HOME="$tmp/home/.local/share" XDG_DATA_DIRS="$tmp/home/share" TZ=Europe/Berlin
mkdir -p -m 0700 "$HOME" "$XDG_RUNTIME_DIR"
unset DBUS_SESSION_BUS_ADDRESS DISPLAY WAYLAND_DISPLAY
# English unless a test chooses a language (C.UTF-8 honours LANGUAGE; C would not).
unset LANGUAGE LC_ALL LC_MESSAGES
export LANG=C.UTF-8

echo "-- lint"
gjs -m "$here/lint.js" "$ext" "$ext"/*.js "$here"/*.js

echo "-- the extension zip"
python3 "$here/../pack.py" "$ext" "$tmp/ext.zip"
python3 - "$ext" "$tmp/ext.zip" <<'EOF'
import json, os, sys, zipfile
ext, path = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(path) as z:
    names = sorted(z.namelist())
    metadata = json.loads(z.read("metadata.json"))
domain = metadata["gettext-domain"]
languages = sorted(f[:-3] for f in os.listdir(os.path.join(ext, "..", "po")) if f.endswith(".po"))
assert languages, "no catalogues in contrib/gnome-shell/po"
expected = sorted(os.listdir(ext) + [f"locale/{ll}/LC_MESSAGES/{domain}.mo" for ll in languages])
assert names == expected, f"zip holds {names}, expected {expected}"
assert metadata["uuid"] == os.path.basename(ext), metadata["uuid"]
print(f"ok   {len(names)} files, the catalogues of {' '.join(languages)} under locale/, uuid {metadata['uuid']}")
EOF

echo "-- the extension's translations: the template current, the catalogues complete"
python3 "$here/../po.py" check
python3 "$here/../po.py" compile "$tmp/locale"

echo "-- present.js"
timeout 60 gjs -m "$here/present.test.js"

echo "-- times on the locale's clock (12-hour under en_US, as petctl), under each LC_TIME"
for clock in C.UTF-8:0 en_US.UTF-8:1 de_DE.UTF-8:0 fr_FR.UTF-8:0; do
    LC_TIME=${clock%:*} PETPROGRESS_TWELVE_HOUR=${clock##*:} timeout 60 gjs -m "$here/clock.test.js"
done

echo "-- timeinput.js"
timeout 60 gjs -m "$here/timeinput.test.js"

echo "-- flip.js (petctl's flip table)"
timeout 60 gjs -m "$here/flip.test.js"

echo "-- present.js and timeinput.js in German and French (the catalogues compiled above)"
for language in de fr; do
    LANGUAGE=$language PETPROGRESS_LOCALE_DIR="$tmp/locale" timeout 60 gjs -m "$here/l10n.test.js"
done

echo "-- present.js in the pseudo-language qps: nothing outside the catalogue (the spoken sentence among it)"
python3 "$here/../po.py" pseudo "$tmp/locale"
LANGUAGE=qps PETPROGRESS_LOCALE_DIR="$tmp/locale" timeout 60 gjs -m "$here/pseudo.test.js"

echo "-- petclient.js against petprogressd on a private bus"
mkdir -p "$tmp/services"
cat > "$tmp/bus.conf" <<EOF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:dir=$tmp</listen>
  <auth>EXTERNAL</auth>
  <servicedir>$tmp/services</servicedir>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
EOF
dbus-daemon --config-file="$tmp/bus.conf" --nofork --nopidfile --print-address=1 \
    >"$tmp/bus.address" 2>"$tmp/bus.stderr" &
bus_pid=$!
for _ in $(seq 100); do
    [ -s "$tmp/bus.address" ] && break
    sleep 0.05
done
address=$(head -n 1 "$tmp/bus.address")
[[ "$address" == unix:* ]] || { echo "dbus-daemon printed no address: $(cat "$tmp/bus.stderr")" >&2; exit 1; }

status=0
DBUS_SESSION_BUS_ADDRESS="$address" PETPROGRESSD="$daemon" PETPROGRESS_TEST_DIR="$tmp" \
    timeout 180 gjs -m "$here/petclient.test.js" || status=$?
if [ "$status" -ne 0 ]; then
    for f in "$tmp"/*.stderr; do echo "--- $(basename "$f")"; tail -n 20 "$f"; done
fi
exit "$status"
