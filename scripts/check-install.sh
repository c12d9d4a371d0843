#!/usr/bin/env bash
# `make install` and `make uninstall`, for real:
#  1. a system install into a DESTDIR (PREFIX=/usr): every file, path and mode, the paths written
#     into the templates, desktop-file-validate on each .desktop file; uninstall leaves no file;
#  2. a per-user install staged in a DESTDIR with a non-default XDG_DATA_HOME: the session files
#     follow XDG_DATA_HOME/XDG_CONFIG_HOME;
#  3. a per-user install into a temporary $HOME/.local (no DESTDIR): the same checks, the unit in a
#     directory `systemd-analyze --user unit-paths` lists and `systemd-analyze verify --user` clean;
#     a private dbus-daemon reading the temporary home's service directories activates the
#     installed daemon on the installed petctl's first `today`; the activation file's Exec=, the
#     autostart Exec=, a hand start and the unit's ExecStart (its %h and ${…} expanded as systemd
#     does) all report one data_dir, also with XDG_DATA_HOME set elsewhere, where the unit exits 78
#     with one line naming both directories until the drop-in that line names is added;
#     `xdg-open petprogress://today` and `gio open` run the installed handler in a (stand-in)
#     terminal that stays open until Enter; uninstall leaves the home as it found it.
# Uses the release build (make release completions man); stops what it starts by PID.
set -euo pipefail
cd "$(dirname "$0")/.."
umask 022
work=$(mktemp -d)
pids=()
cleanup() {
    local pid
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT
failures=0
checks=0
fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}
check() {
    checks=$((checks + 1))
    "$@" || fail "${message:-$*}"
}
bases="tadpole minnow frog hermit starfish jellyfish squid seahorse dolphin shark otter fox lynx wolf bear bison elephant rhino lion god"
handler=io.petprogress.PetProgress.desktop
name=io.petprogress.PetProgress1
object=/io/petprogress/PetProgress1

# Files (and symlinks) under a directory, sorted: what "leaves nothing" compares.
# (Not the build's own cache, which swift build writes into the home make install runs with.)
files_under() { find "$1" ! -type d ! -path "*/.config/swiftpm/*" | sort; }

# The files an install must put in place: relative path and mode, one per line.
expected_files() {
    local bin=$1 share=$2 dbus=$3 unit=$4 apps=$5 autostart=$6 base file
    printf '%s 755\n' "$bin/petprogressd" "$bin/petctl"
    printf '%s 644\n' "$share/dbus-1/interfaces/io.petprogress.PetProgress1.xml" \
        "$dbus/io.petprogress.PetProgress1.service" "$unit/petprogress.service" "$apps/$handler" \
        "$autostart/petprogressd.desktop" "$share/bash-completion/completions/petctl" \
        "$share/zsh/site-functions/_petctl" "$share/fish/vendor_completions.d/petctl.fish" \
        "$share/man/man1/petctl.1" "$share/man/man1/petprogressd.1" "$share/man/man7/petprogress.7" \
        "$unit/petprogress-tray.service" "$autostart/petprogress-tray.desktop"
    printf '%s 777\n' "$unit/graphical-session.target.wants/petprogress-tray.service"
    for file in po/*.po; do
        printf '%s 644\n' "$share/locale/$(basename "$file" .po)/LC_MESSAGES/petprogress.mo"
    done
    printf '%s 644\n' "$share/metainfo/io.petprogress.PetProgress.metainfo.xml"
    for file in contrib/gnome-shell/petprogress@petprogress.io/*; do
        printf '%s 644\n' "$share/gnome-shell/extensions/petprogress@petprogress.io/${file##*/}"
    done
    for file in contrib/gnome-shell/po/*.po; do
        printf '%s 644\n' "$share/gnome-shell/extensions/petprogress@petprogress.io/locale/$(basename "$file" .po)/LC_MESSAGES/petprogress-shell.mo"
    done
    for base in $bases; do
        printf '%s 644\n' "$share/icons/hicolor/scalable/apps/petprogress-$base.svg" \
            "$share/icons/hicolor/512x512/apps/petprogress-$base.png" \
            "$share/icons/hicolor/symbolic/apps/petprogress-$base-symbolic.svg"
    done
    while IFS= read -r -d '' file; do
        printf '%s 644\n' "$share/doc/petprogress/${file#contrib/}"
    done < <(find contrib -mindepth 1 -type f ! -path 'contrib/gnome-shell/*' ! -path 'contrib/plasma/*' ! -path '*/tests/*' -print0)
    # The Plasma widget, where Plasma looks (beside the D-Bus services: per user in XDG_DATA_HOME,
    # else ~/.local/share; system-wide in share/), with its catalogues.
    local plasmoids=${dbus%/dbus-1/services}/plasma/plasmoids
    while IFS= read -r -d '' file; do
        printf '%s 644\n' "$plasmoids/${file#contrib/plasma/}"
    done < <(find contrib/plasma/io.petprogress.plasmoid -type f -print0)
    for file in contrib/plasma/po/*.po; do
        printf '%s 644\n' "$plasmoids/io.petprogress.plasmoid/contents/locale/$(basename "$file" .po)/LC_MESSAGES/plasma_applet_io.petprogress.plasmoid.mo"
    done
}

# Checks one installed tree: the exact file set and modes, the contents, the substituted paths.
#   check_tree ROOT TREE BINDIR SHARE DBUSDIR UNITDIR APPSDIR AUTOSTARTDIR
# ROOT is the DESTDIR ("" for a live install), TREE the directory holding all of it (compared with
# $work/before), the others absolute paths as installed (without ROOT).
# $also_expected: more "path mode" lines the install adds (a desktop database it wrote).
check_tree() {
    local root=$1 tree=$2 bin=$3 share=$4 dbus=$5 unit=$6 apps=$7 autostart=$8 path base file ll
    { expected_files "$bin" "$share" "$dbus" "$unit" "$apps" "$autostart" && printf '%s' "${also_expected:-}"; } |
        sort >"$work/expected"
    # Everything install added (the tree's files now, less those there before).
    comm -13 "$work/before" <(files_under "$tree") | while read -r path; do
        echo "${path#"$root"} $(stat -c %a "$path")"
    done | sort >"$work/installed"
    message="installed files and modes differ from the expected ($(diff "$work/expected" "$work/installed" | head -5 | tr '\n' ' '))" \
        check cmp -s "$work/expected" "$work/installed"
    for path in "$bin/petprogressd" "$bin/petctl"; do
        message="$path is not stripped" check bash -c "! readelf -S --wide '$root$path' | grep -q ' \.symtab '"
        message="$path does not run" check bash -c "'$root$path' --version >/dev/null"
    done
    message="the interface XML differs" check cmp -s dbus/io.petprogress.PetProgress1.xml \
        "$root$share/dbus-1/interfaces/io.petprogress.PetProgress1.xml"
    message="the activation file names the wrong daemon" check grep -qxF "Exec=$bin/petprogressd" \
        "$root$dbus/io.petprogress.PetProgress1.service"
    message="the activation file lacks SystemdService=" check grep -qxF "SystemdService=petprogress.service" \
        "$root$dbus/io.petprogress.PetProgress1.service"
    message="the unit's ExecStart" check grep -qxF \
        "ExecStart=$bin/petprogressd --expect-data-dir \${PETPROGRESS_UNIT_DATA_DIR}" "$root$unit/petprogress.service"
    message="the unit's RestartPreventExitStatus" check grep -qxF "RestartPreventExitStatus=78" "$root$unit/petprogress.service"
    message="the handler's Exec=" check grep -qxF "Exec=$bin/petctl open --hold %u" "$root$apps/$handler"
    message="the handler's MimeType=" check grep -qxF "MimeType=x-scheme-handler/petprogress;" "$root$apps/$handler"
    message="the handler's Terminal=" check grep -qxF "Terminal=true" "$root$apps/$handler"
    message="the autostart Exec=" check grep -qxF "Exec=$bin/petprogressd" "$root$autostart/petprogressd.desktop"
    for file in X-systemd-skip=true X-GNOME-HiddenUnderSystemd=true; do
        message="the autostart entry lacks $file" check grep -qxF "$file" "$root$autostart/petprogressd.desktop"
    done
    # The tray: on by default, once (its unit where systemd runs the session, else its entry).
    message="the tray's ExecStart" check grep -qxF "ExecStart=$bin/petctl tray" "$root$unit/petprogress-tray.service"
    message="the tray's unit is not wanted by graphical-session.target" check test \
        "$(readlink "$root$unit/graphical-session.target.wants/petprogress-tray.service")" = ../petprogress-tray.service
    message="the tray's autostart Exec=" check grep -qxF "Exec=$bin/petctl tray" "$root$autostart/petprogress-tray.desktop"
    for file in X-systemd-skip=true X-GNOME-HiddenUnderSystemd=true; do
        message="the tray's autostart entry lacks $file" check grep -qxF "$file" "$root$autostart/petprogress-tray.desktop"
    done
    for file in "$root$apps/$handler" "$root$autostart/petprogressd.desktop" "$root$autostart/petprogress-tray.desktop"; do
        message="desktop-file-validate $file: $(desktop-file-validate "$file" 2>&1 | head -3)" \
            check test -z "$(desktop-file-validate "$file" 2>&1)"
    done
    # The desktop entries' Name and Comment in every language of po/ (msgfmt --desktop).
    for file in po/*.po; do
        ll=$(basename "$file" .po)
        for path in "$root$apps/$handler" "$root$autostart/petprogressd.desktop" "$root$autostart/petprogress-tray.desktop"; do
            message="$path lacks Name[$ll]" check grep -q "^Name\[$ll\]=.*" "$path"
            message="$path lacks Comment[$ll]" check grep -q "^Comment\[$ll\]=." "$path"
        done
        # petctl looks for its catalogues in <its directory>/../share/locale (petprogress(7) §8).
        message="petctl's $ll catalogue is not the build's, in $(dirname "$bin")/share/locale" check cmp -s \
            ".build-release/release/../share/locale/$ll/LC_MESSAGES/petprogress.mo" \
            "$root$(dirname "$bin")/share/locale/$ll/LC_MESSAGES/petprogress.mo"
    done
    message="$bin/petctl --help under LANG=de_DE.UTF-8 is not German" check bash -c \
        "LANG=de_DE.UTF-8 '$root$bin/petctl' --help | grep -q Haustier"
    message="the handler's German name" check grep -qxF "GenericName[de]=To-do-Begleiter" "$root$apps/$handler"
    message="the tray entry's French comment" check grep -qxF \
        "Comment[fr]=Affiche votre compagnon et les tâches du jour dans la zone de notification" \
        "$root$autostart/petprogress-tray.desktop"
    message="an @placeholder@ is left in an installed file" check bash -c "! grep -rl '@bindir@' '$tree' >/dev/null"
    for base in $bases; do
        message="petprogress-$base.svg differs" check cmp -s "data/pets/pet_$base.svg" \
            "$root$share/icons/hicolor/scalable/apps/petprogress-$base.svg"
        message="petprogress-$base.png is not the 512x512 render" check cmp -s "data/pets/pet_$base.png" \
            "$root$share/icons/hicolor/512x512/apps/petprogress-$base.png"
        message="petprogress-$base-symbolic.svg differs" check cmp -s "data/pets/symbolic/petprogress-$base-symbolic.svg" \
            "$root$share/icons/hicolor/symbolic/apps/petprogress-$base-symbolic.svg"
    done
    message="a 512x512 icon is not 512x512" check python3 - "$root$share/icons/hicolor/512x512/apps" <<'PY'
import pathlib, struct, sys
for png in pathlib.Path(sys.argv[1]).glob("*.png"):
    head = png.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", head[16:24]) == (512, 512), png
PY
    for file in petctl.bash:bash-completion/completions/petctl _petctl:zsh/site-functions/_petctl \
        petctl.fish:fish/vendor_completions.d/petctl.fish; do
        message="completion ${file#*:} differs" check cmp -s ".build-release/generated/completions/${file%%:*}" \
            "$root$share/${file#*:}"
    done
    message="the man page differs" check cmp -s .build-release/generated/man/petctl.1 "$root$share/man/man1/petctl.1"
}

# Uninstall must remove every file install added and leave the rest as it was.
check_uninstalled() {
    local root=$1
    files_under "$root" >"$work/after"
    message="uninstall left files behind or took others: $(diff "$work/before" "$work/after" | head -5 | tr '\n' ' ')" \
        check cmp -s "$work/before" "$work/after"
    message="uninstall left the documentation directory" check bash -c "! find '$root' -path '*/doc/petprogress' | grep -q ."
}

# SWIFT=false: installing the shipped build must not build (or need a toolchain).
run_make() {
    local log=$work/make.log
    if ! make -s --no-print-directory SWIFT=false "$@" >"$log" 2>&1; then
        cat "$log" >&2
        fail "make $*"
        return 1
    fi
}

echo "-- system layout: make install PREFIX=/usr DESTDIR=…"
dest=$work/dest
mkdir -p "$dest"
files_under "$dest" >"$work/before"
run_make install PREFIX=/usr DESTDIR="$dest"
check_tree "$dest" "$dest" /usr/bin /usr/share /usr/share/dbus-1/services /usr/lib/systemd/user /usr/share/applications \
    /etc/xdg/autostart
run_make uninstall PREFIX=/usr DESTDIR="$dest"
check_uninstalled "$dest"

echo "-- uninstall with DOCDIR a shared place removes only the directories of its own files"
shared=$work/shared-doc
mkdir -p "$shared/usr/share/doc/other-package/empty" "$shared/usr/share/doc/empty-too"
run_make install PREFIX=/usr DESTDIR="$shared" DOCDIR=/usr/share/doc
run_make uninstall PREFIX=/usr DESTDIR="$shared" DOCDIR=/usr/share/doc
message="uninstall removed another package's empty directory" \
    check test -d "$shared/usr/share/doc/other-package/empty" -a -d "$shared/usr/share/doc/empty-too"
message="uninstall left its own documentation directories" \
    check test -z "$(find "$shared/usr/share/doc" -mindepth 1 -maxdepth 1 ! -name other-package ! -name empty-too)"

for prefix in /usr/local /opt/petprogress; do
    echo "-- system layout: PREFIX=$prefix keeps its autostart entry under the prefix (petprogress(7) §8)"
    run_make install PREFIX=$prefix DESTDIR="$dest"
    message="PREFIX=$prefix: autostart not in $prefix/etc/xdg/autostart" \
        check test -f "$dest$prefix/etc/xdg/autostart/petprogressd.desktop"
    message="PREFIX=$prefix wrote outside itself" check test -z "$(find "$dest/etc" -type f 2>/dev/null)"
    run_make uninstall PREFIX=$prefix DESTDIR="$dest"
    check_uninstalled "$dest"
done

# A zone where it is now between 12:00 and 13:00, so that no closeout (midnight) falls inside the
# test and the task it adds for 23:59 is still ahead, whenever the test runs.
midday_zone() {
    local offset=$((12 - 10#$(date -u +%H)))
    # Etc/GMT-N is N hours ahead of UTC (POSIX signs).
    if [ "$offset" -gt 0 ]; then echo "Etc/GMT-$offset"; elif [ "$offset" -lt 0 ]; then echo "Etc/GMT+$((-offset))"; else echo Etc/GMT; fi
}

# A home for the per-user installs: every XDG directory inside it, none of the host's.
home=$work/home
mkdir -p "$home" "$work/run" "$work/host-share" "$work/host-config"
chmod 0700 "$work/run"
session_env=(HOME="$home" XDG_DATA_HOME="$home/.local/share" XDG_CONFIG_HOME="$home/.config"
    XDG_STATE_HOME="$home/.local/state" XDG_CACHE_HOME="$work/cache" XDG_RUNTIME_DIR="$work/run"
    XDG_DATA_DIRS="$work/host-share" XDG_CONFIG_DIRS="$work/host-config" XDG_CURRENT_DESKTOP=X-Generic
    PATH="$work/fakebin:$home/.local/bin:$PATH" DBUS_SESSION_BUS_ADDRESS= DISPLAY=:99 NO_COLOR= TZ="$(midday_zone)")

echo "-- per-user layout staged with XDG_DATA_HOME elsewhere: session files follow it"
files_under "$dest" >"$work/before"
env "${session_env[@]}" XDG_DATA_HOME="$home/xdg-data" XDG_CONFIG_HOME="$home/xdg-config" \
    make -s --no-print-directory install PREFIX="$home/.local" DESTDIR="$dest" >"$work/make.log" 2>&1 ||
    { cat "$work/make.log" >&2; fail "staged per-user make install"; }
check_tree "$dest" "$dest" "$home/.local/bin" "$home/.local/share" "$home/xdg-data/dbus-1/services" \
    "$home/xdg-data/systemd/user" "$home/xdg-data/applications" "$home/xdg-config/autostart"
env "${session_env[@]}" XDG_DATA_HOME="$home/xdg-data" XDG_CONFIG_HOME="$home/xdg-config" \
    make -s --no-print-directory uninstall PREFIX="$home/.local" DESTDIR="$dest" >"$work/make.log" 2>&1 ||
    { cat "$work/make.log" >&2; fail "staged per-user make uninstall"; }
check_uninstalled "$dest"


# --- The per-user install into the temporary home, and the session around it. ---

in_session() { env "${session_env[@]}" "$@"; }
bus_env=()

# Starts a private session bus with the given environment (its activated services inherit it).
start_bus() {
    env "${session_env[@]}" "$@" dbus-daemon --session --fork --nopidfile --print-address=1 --print-pid=1 >"$work/bus"
    bus_env=("${session_env[@]}" "$@" DBUS_SESSION_BUS_ADDRESS="$(sed -n 1p "$work/bus")")
    pids+=("$(sed -n 2p "$work/bus")")
}
on_bus() { env "${bus_env[@]}" "$@"; }

# Waits up to $1 seconds for a command to succeed.
wait_until() {
    local deadline=$((SECONDS + $1))
    shift
    until "$@" >/dev/null 2>&1; do
        [ "$SECONDS" -lt "$deadline" ] || return 1
        sleep 0.05
    done
}
daemon_pid() {
    on_bus gdbus call -e --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
        --method org.freedesktop.DBus.GetConnectionUnixProcessID "$name" | sed -n 's/^(uint32 \([0-9]*\),)$/\1/p' | grep .
}
data_dir() {
    on_bus gdbus call -e --dest "$name" --object-path "$object" --method "$name.GetStatus" |
        sed -n "s/.*'data_dir': <'\([^']*\)'>.*/\1/p"
}
# Stops the daemon that owns the name (by its PID) and waits until it has gone.
stop_daemon() {
    local pid
    pid=$(daemon_pid) || return 0
    kill "$pid"
    wait_until 10 bash -c "! kill -0 $pid" || fail "daemon $pid did not stop"
    wait_until 10 bash -c "! $(printf '%q ' env "${bus_env[@]}") gdbus call -e --dest org.freedesktop.DBus \
        --object-path /org/freedesktop/DBus --method org.freedesktop.DBus.GetNameOwner $name" || true
}

# Starts the daemon by COMMAND… in the background (as a session would); its data_dir in $result.
start_for_data_dir() {
    result="(did not start)"
    on_bus "$@" 2>>"$work/daemon.log" &
    pids+=($!)
    wait_until 20 daemon_pid || { fail "$* did not take the bus name"; return 0; }
    result=$(data_dir)
    stop_daemon
}

# The unit's ExecStartPre= and ExecStart=, with %h and ${PETPROGRESS_UNIT_DATA_DIR} expanded as
# systemd expands them (the last Environment= assignment wins, drop-ins after the unit).
unit_lines() {
    local key=$1 dir line
    shift
    dir=$(grep -h '^Environment=PETPROGRESS_UNIT_DATA_DIR=' "$@" | tail -1)
    dir=${dir#Environment=PETPROGRESS_UNIT_DATA_DIR=}
    dir=${dir//%h/$home}
    line=$(grep -h "^$key=" "$1" | tail -1)
    line=${line#"$key="}
    line=${line#+}
    echo "${line//\$\{PETPROGRESS_UNIT_DATA_DIR\}/$dir}"
}
# Runs the unit's start (ExecStartPre=, then ExecStart= in the background); its data_dir in $result.
start_unit_for_data_dir() {
    # shellcheck disable=SC2046 # the expanded command lines hold no spaces but between words
    on_bus $(unit_lines ExecStartPre "$@") || fail "the unit's ExecStartPre failed"
    # shellcheck disable=SC2046
    start_for_data_dir $(unit_lines ExecStart "$@")
}

# Checks that every start path reported DIR: check_data_dirs DIR how:dir…
check_data_dirs() {
    local want=$1 got
    shift
    for got in "$@"; do
        message="${got%%:*} uses '${got#*:}', not $want" check test "${got#*:}" = "$want"
    done
}

echo "-- per-user layout: make install PREFIX=\$HOME/.local (HOME=$home)"
files_under "$home" >"$work/before"
in_session make -s --no-print-directory install PREFIX="$home/.local" >"$work/make.log" 2>&1 ||
    { cat "$work/make.log" >&2; fail "per-user make install"; }
# It ends with what to do next, not with a list of every file.
grep -q '^Next, try:$' "$work/make.log" && [ "$(grep -c "$home/.local/share/icons" "$work/make.log")" = 0 ] ||
    { cat "$work/make.log" >&2; fail "make install's output is a file list, not what to do next"; }
share=$home/.local/share
unit=$share/systemd/user/petprogress.service
also_expected="$share/applications/mimeinfo.cache 644
$home/.config/mimeapps.list 644
" check_tree "" "$home" "$home/.local/bin" "$share" "$share/dbus-1/services" "$share/systemd/user" \
    "$share/applications" "$home/.config/autostart"
message="xdg-mime did not make the handler the default" check grep -qxF "x-scheme-handler/petprogress=$handler" \
    "$home/.config/mimeapps.list"
message="mimeinfo.cache does not list the handler" check grep -qF "x-scheme-handler/petprogress=$handler" \
    "$share/applications/mimeinfo.cache"
in_session systemd-analyze --user unit-paths >"$work/unit-paths"
message="systemd --user does not search $(dirname "$unit")" check grep -qxF "$(dirname "$unit")" "$work/unit-paths"
for verified in "$unit" "$(dirname "$unit")/petprogress-tray.service"; do
    if in_session systemd-analyze verify --user "$verified" >"$work/verify" 2>&1 && [ ! -s "$work/verify" ]; then
        checks=$((checks + 1))
    else
        fail "systemd-analyze verify --user $verified: $(cat "$work/verify")"
    fi
done

echo "-- one data directory however the daemon starts (XDG_DATA_HOME=$share)"
start_bus
petctl=$home/.local/bin/petctl
on_bus "$petctl" today >"$work/today" 2>&1 ||
    fail "the installed petctl today could not reach an activated daemon: $(cat "$work/today")"
pid=$(daemon_pid)
message="the activated daemon is not the installed one" check test "$(readlink "/proc/$pid/exe")" = \
    "$home/.local/bin/petprogressd"
on_bus "$petctl" add 23:59 "Water the plants" >/dev/null 2>"$work/petctl.err" || fail "petctl add: $(cat "$work/petctl.err")"
on_bus "$petctl" today >"$work/today" 2>&1 || fail "petctl today: $(cat "$work/today")"
message="petctl today does not show the task" check grep -q "Water the plants" "$work/today"
activated=$(data_dir)
stop_daemon
autostart_exec=$(sed -n 's/^Exec=//p' "$home/.config/autostart/petprogressd.desktop")
# shellcheck disable=SC2086 # Exec= is a command line
start_for_data_dir $autostart_exec
from_autostart=$result
start_for_data_dir petprogressd
by_hand=$result
start_unit_for_data_dir "$unit"
check_data_dirs "$share/petprogress" "activation:$activated" "autostart:$from_autostart" "by hand:$by_hand" \
    "the unit:$result"
kill "$(sed -n 2p "$work/bus")"

echo "-- … and with XDG_DATA_HOME set elsewhere (as in environment.d, which the manager's %h ignores)"
elsewhere=$home/elsewhere
start_bus XDG_DATA_HOME="$elsewhere" XDG_DATA_DIRS="$share:$work/host-share"
on_bus "$petctl" status >"$work/status" 2>&1 || fail "petctl status: $(cat "$work/status")"
activated=$(data_dir)
stop_daemon
# shellcheck disable=SC2086
start_for_data_dir $autostart_exec
from_autostart=$result
start_for_data_dir petprogressd
check_data_dirs "$elsewhere/petprogress" "activation:$activated" "autostart:$from_autostart" "by hand:$result"
# shellcheck disable=SC2046
on_bus timeout 20 $(unit_lines ExecStart "$unit") >/dev/null 2>"$work/mismatch" && status=0 || status=$?
message="the unit with a data directory its sandbox does not allow exited $status, not 78" check test "$status" = 78
message="the unit's refusal is not one line naming both directories: $(cat "$work/mismatch")" check \
    bash -c "[ \$(wc -l <'$work/mismatch') = 1 ] && grep -qF '$elsewhere/petprogress' '$work/mismatch' &&
        grep -qF '$share/petprogress' '$work/mismatch' && grep -qF 'systemctl --user edit petprogress' '$work/mismatch'"
# The fix the line names, as `systemctl --user edit petprogress` would save it.
dropin=$home/.config/systemd/user/petprogress.service.d/override.conf
mkdir -p "$(dirname "$dropin")"
{
    echo "[Service]"
    grep -o 'Environment=[^ ]*' "$work/mismatch"
    grep -o 'ReadWritePaths=[^ ]*' "$work/mismatch"
} >"$dropin"
printf '[Service]\nEnvironment=PETPROGRESS_UNIT_DATA_DIR=%s\nReadWritePaths=%s\n' "$elsewhere/petprogress" \
    "$elsewhere/petprogress" >"$work/dropin.expected"
message="the drop-in the refusal names is not exact: $(tr '\n' ' ' <"$dropin")" check cmp -s "$work/dropin.expected" "$dropin"
if in_session systemd-analyze verify --user "$unit" >"$work/verify" 2>&1 && [ ! -s "$work/verify" ]; then
    checks=$((checks + 1))
else
    fail "systemd-analyze verify --user with the drop-in: $(cat "$work/verify")"
fi
start_unit_for_data_dir "$unit" "$dropin"
check_data_dirs "$elsewhere/petprogress" "the unit with the drop-in:$result"
kill "$(sed -n 2p "$work/bus")"

echo "-- petprogress:// opens the live Today screen in a terminal, which closes when it is left"
# A stand-in terminal emulator: records how it was called and runs the command on a pty, as a
# terminal window does, with the keys the test types.
mkdir -p "$work/fakebin" "$work/terminal"
cat >"$work/fakebin/x-terminal-emulator" <<'SH'
#!/bin/bash
t=${FAKE_TERMINAL:?}
printf '%s\n' "$@" >"$t/args"
case ${1-} in -e | --) shift ;; esac
script -qefc "$(printf '%q ' "$@")" "$t/screen" <"$t/keys" >/dev/null
echo $? >"$t/status"
SH
chmod 0755 "$work/fakebin/x-terminal-emulator"
for alias in xterm gnome-terminal; do ln -s x-terminal-emulator "$work/fakebin/$alias"; done
start_bus FAKE_TERMINAL="$work/terminal"
# Opens the link with COMMAND…, checks the window holds the live screen until q.
open_link() {
    local t=$work/terminal keys opener
    rm -f "$t"/*
    mkfifo "$t/keys"
    exec {keys}<>"$t/keys"
    # No controlling terminal: xdg-open would otherwise run the handler in the test's own one.
    on_bus setsid -w "$@" petprogress://today >"$work/opener.log" 2>&1 &
    opener=$!
    if ! wait_until 30 grep -q "q quit" "$t/screen"; then
        fail "$1: no live Today screen ($(cat "$work/opener.log" "$t/screen" 2>/dev/null | tail -5 | tr '\n' ' '))"
    else
        sleep 1
        message="$1: the terminal closed before q" check test ! -e "$t/status"
        message="$1: the screen lacks the task" check grep -q "Water the plants" "$t/screen"
        # The terminal's own option before the command: -e (x-terminal-emulator, xterm) or --.
        printf '%s\n' "$petctl" open --hold petprogress://today >"$work/handler-args"
        message="$1: the terminal ran $(tr '\n' ' ' <"$t/args")" check bash -c \
            "head -1 '$t/args' | grep -qx -- '-e\|--' && tail -n +2 '$t/args' | cmp -s - '$work/handler-args'"
    fi
    printf q >&"$keys"
    message="$1: the terminal did not close after q with status 0" check wait_until 10 grep -qx 0 "$t/status"
    exec {keys}>&-
    wait "$opener" || fail "$1 exited $?: $(cat "$work/opener.log")"
}
open_link xdg-open
open_link gio open
stop_daemon
kill "$(sed -n 2p "$work/bus")"

echo "-- make uninstall PREFIX=\$HOME/.local"
in_session make -s --no-print-directory uninstall PREFIX="$home/.local" >"$work/make.log" 2>&1 ||
    { cat "$work/make.log" >&2; fail "per-user make uninstall"; }
# The user's data (and what petctl remembers of what it showed, under XDG_STATE_HOME) and their own
# drop-in stay; everything else is as before the install.
message="uninstall touched the data" check test -f "$share/petprogress/state.json" -a -f "$elsewhere/petprogress/state.json"
{ files_under "$home" | grep -v "^$share/petprogress/\|^$home/.local/state/petprogress/\|^$home/elsewhere/\|petprogress\.service\.d/" || true; } >"$work/after"
message="uninstall left files behind or took others: $(diff "$work/before" "$work/after" | head -5 | tr '\n' ' ')" \
    check cmp -s "$work/before" "$work/after"

# Paths with spaces and the characters each file's syntax gives a meaning to: the installed paths
# are quoted for systemd (ExecStart=), D-Bus (the activation file's Exec=) and desktop entries
# (Exec=), and each file is read by its real reader: systemd-analyze verify, dbus-daemon's
# activation, GLib's launcher (gio launch) and desktop-file-validate.
for spaced in "$work/John Smith/.local" "$work/José (a~b*c) #1; x&y/.local"; do
    echo "-- PREFIX=\"$spaced\""
    in_session make -s --no-print-directory install PREFIX="$spaced" >"$work/make.log" 2>&1 ||
        { cat "$work/make.log" >&2; fail "make install PREFIX=$spaced"; }
    unit=$spaced/lib/systemd/user/petprogress.service
    if in_session systemd-analyze verify --user "$unit" >"$work/verify" 2>&1 && [ ! -s "$work/verify" ]; then
        checks=$((checks + 1))
    else
        fail "systemd-analyze verify --user $unit: $(cat "$work/verify")"
    fi
    for file in "$spaced/share/applications/$handler" "$spaced/etc/xdg/autostart/petprogressd.desktop"; do
        message="desktop-file-validate $file: $(desktop-file-validate "$file" 2>&1 | head -3)" \
            check test -z "$(desktop-file-validate "$file" 2>&1)"
    done
    start_bus XDG_DATA_DIRS="$spaced/share:$work/host-share" FAKE_TERMINAL="$work/terminal"
    on_bus "$spaced/bin/petctl" status >"$work/status" 2>&1 || fail "activation from $spaced: $(cat "$work/status")"
    pid=$(daemon_pid) || pid=
    message="the daemon activated from $spaced is $(readlink "/proc/$pid/exe")" check test \
        "$(readlink "/proc/$pid/exe")" = "$spaced/bin/petprogressd"
    stop_daemon
    start_for_data_dir gio launch "$spaced/etc/xdg/autostart/petprogressd.desktop"
    check_data_dirs "$share/petprogress" "the autostart entry in $spaced:$result"
    petctl=$spaced/bin/petctl open_link gio launch "$spaced/share/applications/$handler"
    stop_daemon
    kill "$(sed -n 2p "$work/bus")"
    in_session make -s --no-print-directory uninstall PREFIX="$spaced" >"$work/make.log" 2>&1 ||
        { cat "$work/make.log" >&2; fail "make uninstall PREFIX=$spaced"; }
    message="uninstall PREFIX=$spaced left files: $(find "$spaced" ! -type d | head -3 | tr '\n' ' ')" \
        check test -z "$(find "$spaced" ! -type d)"
done
# Refused with a sentence, nothing installed: the characters the three syntaxes spell differently.
for refused in "$work/O'Brien/.local" "$work/100%/.local" "$work/line"$'\n'"break/.local"; do
    echo "-- PREFIX=\"${refused//$'\n'/\\n}\" is refused"
    if in_session make -s --no-print-directory install PREFIX="$refused" >"$work/make.log" 2>&1; then
        fail "make install PREFIX=$refused succeeded"
    else
        message="the refusal is not one sentence: $(cat "$work/make.log")" check grep -q "choose a directory without them" "$work/make.log"
    fi
    message="the refused install wrote files" check test ! -e "$refused"
done

echo "-- a user's own mimeapps.list keeps everything but the handler's line"
home2=$work/home2
mkdir -p "$home2/.config"
printf '[Default Applications]\ntext/plain=org.example.Editor.desktop\n\n[Added Associations]\ntext/plain=org.example.Editor.desktop;\n' \
    >"$home2/.config/mimeapps.list"
cp "$home2/.config/mimeapps.list" "$work/mimeapps.before"
for step in install uninstall; do
    env "${session_env[@]}" HOME="$home2" XDG_DATA_HOME="$home2/.local/share" XDG_CONFIG_HOME="$home2/.config" \
        make -s --no-print-directory "$step" PREFIX="$home2/.local" >"$work/make.log" 2>&1 ||
        { cat "$work/make.log" >&2; fail "make $step for home2"; }
    [ "$step" = uninstall ] || message="home2: no default handler" check grep -qxF \
        "x-scheme-handler/petprogress=$handler" "$home2/.config/mimeapps.list"
done
message="home2: mimeapps.list changed: $(diff "$work/mimeapps.before" "$home2/.config/mimeapps.list" | tr '\n' ' ')" \
    check cmp -s "$work/mimeapps.before" "$home2/.config/mimeapps.list"

echo "install checks: $((checks - failures)) passed, $failures failed"
[ "$failures" -eq 0 ]
