#!/usr/bin/env bash
# The Plasma widget (contrib/plasma/io.petprogress.plasmoid) in Plasma 6 in the Debian 13 root from
# scripts/debian-root.sh (plasma6, shared with check-plasma.sh), against the build's daemon (BIN-DIR
# read-only on /opt/pet), started by D-Bus activation when the widget first reads. Passes when:
#   - qmltestrunner passes the time input (against petctl's time-input.tsv) and the moments tests;
#   - kpackagetool6 installs the package per user and writes its AppStream metadata cleanly;
#   - in plasmawindowed: no QML warnings; the widget's first read starts the daemon; tasks added
#     with petctl appear without a click at the moment the widget armed (the tick: Plasma 6.3 has
#     no SignalWatcher) and not before; a click on a task's Done marks it done in the daemon; Add
#     task (typed "7pm" and a title, Enter) adds it at 19:00; every control has an accessible name;
#   - German and French show translated words; the pseudo-language qps leaves no word outside ⟦…⟧;
#   - screenshots of the popup at 1x and 2x, light and dark: OUT-DIR/plasma-widget-{light,dark}{,-2x}.png;
#   - in plasmashell (its default panel, the widget added by plasmashell's scripting): the panel
#     shows the widget's count and next task (OUT-DIR/plasma-widget-panel.png); `petctl tray`
#     registers with the watcher but is Passive and not drawn in the panel while the widget is
#     there, and Active and drawn once the widget is removed (SPEC §8: one pet per session).
# As root.   usage: check-plasma-widget.sh BIN-DIR OUT-DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
[ $# -eq 2 ] || { echo "usage: $0 BIN-DIR OUT-DIR" >&2; exit 64; }
bin=$(realpath "$1") out=$(realpath -m "$2")
[ -x "$bin/petprogressd" ] && [ -x "$bin/petctl" ] || { echo "$0: need $bin/petprogressd and $bin/petctl" >&2; exit 1; }
t0=$SECONDS
say() { echo "plasma-widget: $*"; }
fail() { echo "plasma-widget: FAIL: $*" >&2; exit 1; }

# shellcheck source=scripts/desktop-root.sh
. "$here/desktop-root.sh"
# shellcheck source=scripts/plasma-session.sh
. "$here/plasma-session.sh"
enter_root plasma6
say "root ready in $((SECONDS - t0)) s"

home=/home/tester
run=/tmp/xdg
mkdir -p "$root$run" "$root/run/dbus"
chroot "$root" chown tester:tester $run
chmod 700 "$root$run"
# The widget's package as the repository has it, its catalogues compiled into contents/locale (where
# Plasma looks for a widget's), with the pseudo-language qps beside German and French.
src=$root$home/src
mkdir -p "$src"
cp -r "$repo/contrib/plasma/io.petprogress.plasmoid" "$repo/contrib/plasma/tests" "$src/"
python3 "$repo/contrib/plasma/po.py" compile "$src/io.petprogress.plasmoid/contents/locale"
python3 "$repo/contrib/plasma/po.py" pseudo "$src/io.petprogress.plasmoid/contents/locale"
cp "$repo/Tests/PetCtlTests/Fixtures/time-input.tsv" "$repo/Tests/PetCtlTests/Fixtures/flip-rule.tsv" "$src/tests/"
# The pet's icons where the session looks (as make install puts them), and the daemon's activation.
icons=$root/usr/share/icons/hicolor
mkdir -p "$icons/scalable/apps" "$icons/symbolic/apps"
for svg in "$repo"/data/pets/pet_*.svg; do
    base=${svg##*/pet_}
    cp "$svg" "$icons/scalable/apps/petprogress-$base"
done
cp "$repo"/data/pets/symbolic/*.svg "$icons/symbolic/apps/"
# The daemon on a clock 60 times as fast as real time, from 13:50: the tick at 14:00 comes ten
# seconds after it starts, and every task's moments within a minute or two.
cat > "$root/usr/share/dbus-1/services/io.petprogress.PetProgress1.service" <<EOF
[D-BUS Service]
Name=io.petprogress.PetProgress1
Exec=/opt/pet/petprogressd --data-dir $home/petdata --now 2026-03-02T13:50:00Z --time-scale 60
EOF
chroot "$root" chown -R tester:tester "$home"

# As the user, inside the root, in the session; as_user_exec replaces the (sub)shell, so that a
# background `(as_user_exec …) &` gives the program's own PID.
as_user() { (as_user_exec "$@"); }
as_user_exec() {
    exec chroot --userspec=tester:tester "$root" env -i PATH=/usr/bin:/bin HOME=$home LANG=C.UTF-8 TZ=UTC \
        XDG_RUNTIME_DIR=$run DBUS_SESSION_BUS_ADDRESS=unix:path=$run/bus DISPLAY=:99 QT_QPA_PLATFORM=xcb \
        XDG_CURRENT_DESKTOP=KDE KDE_FULL_SESSION=true KDE_SESSION_VERSION=6 PLASMA_PRELOAD_POLICY=none \
        QT_MESSAGE_PATTERN='%{type} %{category}: %{message}' "$@"
}
in_background() { (as_user_exec sh -c "exec $1 > /tmp/$2.log 2>&1") & }
view() { python3 "$repo/contrib/plasma/tests/view.py" "$1" "$root/tmp/widget.log" "${@:2}"; }

# 1. The pure parts under qmltestrunner (no display, no bus).
t=$SECONDS
as_user env QT_QPA_PLATFORM=offscreen QML_XHR_ALLOW_FILE_READ=1 /usr/lib/qt6/bin/qmltestrunner \
    -input $home/src/tests > "$out/qmltestrunner.log" 2>&1 || { cat "$out/qmltestrunner.log" >&2; fail "qmltestrunner"; }
say "qmltestrunner: $(grep -E '^Totals' "$out/qmltestrunner.log" | tr '\n' ' ')($((SECONDS - t)) s)"

# 2. kpackagetool6: the per-user install and the AppStream metadata.
as_user kpackagetool6 -t Plasma/Applet -i $home/src/io.petprogress.plasmoid > "$out/kpackagetool.log" 2>&1 \
    || { cat "$out/kpackagetool.log" >&2; fail "kpackagetool6 -i"; }
[ -f "$root$home/.local/share/plasma/plasmoids/io.petprogress.plasmoid/metadata.json" ] || fail "not installed per user"
as_user kpackagetool6 -t Plasma/Applet --appstream-metainfo $home/src/io.petprogress.plasmoid \
    > "$out/appstream.xml" 2> "$out/appstream.err" || { cat "$out/appstream.err" >&2; fail "kpackagetool6 --appstream-metainfo"; }
[ ! -s "$out/appstream.err" ] || { cat "$out/appstream.err" >&2; fail "kpackagetool6 --appstream-metainfo said something"; }
grep -q '<id>io.petprogress.plasmoid</id>' "$out/appstream.xml" || { cat "$out/appstream.xml" >&2; fail "no component id in the AppStream metadata"; }
say "kpackagetool6: installed in ~/.local/share/plasma/plasmoids, AppStream metadata clean"

# 3. The session: buses, X, and the widget in plasmawindowed, logging what its popup shows.
start_session 1280x800
# kdeglobals, the colour scheme and the Plasma theme of a look ($1: light or dark).
look() {
    local scheme=BreezeLight theme=default
    [ "$1" = light ] || { scheme=BreezeDark theme=breeze-dark; }
    mkdir -p "$root$home/.config"
    if [ -f "$root/usr/share/color-schemes/$scheme.colors" ]; then
        cp "$root/usr/share/color-schemes/$scheme.colors" "$root$home/.config/kdeglobals"
        printf '[General]\nColorScheme=%s\n' "$scheme" >> "$root$home/.config/kdeglobals"
    fi
    printf '[Theme]\nname=%s\n' "$theme" > "$root$home/.config/plasmarc"
    chroot "$root" chown -R tester:tester "$home/.config"
}
widget_pid=
start_widget() {  # ENV… : plasmawindowed with the widget, its log /tmp/widget.log
    rm -f "$root/tmp/widget.log"
    # The subshell, chroot, env and sh each exec the next: the PID is plasmawindowed's own.
    (as_user_exec env QT_LOGGING_RULES='io.petprogress.plasmoid.debug=true' "$@" \
        sh -c 'exec plasmawindowed io.petprogress.plasmoid > /tmp/widget.log 2>&1') &
    widget_pid=$!
}
# plasmawindowed is a unique application: the next one starts only once this one is gone.
stop_widget() {
    kill "$widget_pid" 2> /dev/null || true
    for _ in $(seq 100); do
        # Gone, or a zombie this script has not reaped.
        [ -e "/proc/$widget_pid" ] && [ "$(awk '{ print $3 }' "/proc/$widget_pid/stat" 2> /dev/null)" != Z ] || return 0
        sleep 0.1
    done
    fail "plasmawindowed ($widget_pid) did not stop"
}
# Waits (up to $1 s) until the last view satisfies "view has TEXT".
wait_has() {
    local end=$((SECONDS + $1))
    shift
    while [ $SECONDS -le $end ]; do
        view has "$@" 2> /dev/null && return 0
        sleep 0.2
    done
    return 1
}
# Waits (up to $1 s) until petctl today --plain shows PATTERN.
wait_today() {
    local end=$((SECONDS + $1))
    while [ $SECONDS -le $end ]; do
        as_user /opt/pet/petctl today --plain 2> /dev/null | grep -qE "$2" && return 0
        sleep 0.2
    done
    return 1
}
# The widget's window: the largest of plasmawindowed's (a tooltip is a window of its own too).
window() {
    local id best= area=0 WIDTH HEIGHT
    for id in $(as_user xdotool search --onlyvisible --class plasmawindowed); do
        eval "$(as_user xdotool getwindowgeometry --shell "$id" | grep -E '^(WIDTH|HEIGHT)=[0-9]+$')"
        if [ $((WIDTH * HEIGHT)) -gt $area ]; then
            area=$((WIDTH * HEIGHT))
            best=$id
        fi
    done
    echo "$best"
}
click() {  # accessible name prefix
    local xy
    xy=$(view where "$1") || fail "no control named '$1' in $(view last)"
    # shellcheck disable=SC2086
    as_user xdotool mousemove --window "$(window)" $xy click 1
}
shot() {  # NAME: the widget's window, to OUT-DIR/NAME.png
    screen_png "$out/$1.png" "$(as_user xdotool getwindowgeometry --shell "$(window)" | tr '\n' ' ')"
}

# 4. The first read starts the daemon (no task yet); tasks petctl adds appear at the moment armed.
look light
start_widget
wait_has 60 "0/0" || { cat "$root/tmp/widget.log" >&2; fail "the widget never showed the daemon's 0/0"; }
as_user gdbus call --session -d org.freedesktop.DBus -o /org/freedesktop/DBus -m org.freedesktop.DBus.NameHasOwner \
    io.petprogress.PetProgress1 | grep -q true || fail "the daemon is not running after the widget's read"
first=$(view last)
armed=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["moment"])' "$first")
signals=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["signals"])' "$first")
[ "$armed" -gt 0 ] || fail "no moment armed after the first read: $first"
t=$SECONDS
views=$(view count)
added_from=$(date +%s%3N)
as_user /opt/pet/petctl add 16:00 'Write report' > /dev/null
as_user /opt/pet/petctl add 17:30 'Call the vet' > /dev/null
as_user /opt/pet/petctl add 18:00 'Water the plants' > /dev/null
# A read before the armed moment is a poll; once the adds took longer than the moment (a loaded
# machine), a read may be the moment's own and proves nothing either way.
if [ "$(view count)" != "$views" ] && [ "$signals" != True ] && [ $(($(date +%s%3N) - added_from)) -lt "$armed" ]; then
    fail "the widget read again before its moment (it must not poll)"
fi
wait_has $((armed / 1000 + 10)) "Call the vet" || fail "petctl's tasks did not appear by the moment armed ($armed ms): $(view last)"
say "the widget started the daemon; petctl's tasks appeared without a click after $((SECONDS - t)) s (moment armed: $armed ms; SignalWatcher: $signals)"
view has "0/3" || fail "the count is not 0/3: $(view last)"
view names || fail "a control without an accessible name"

# 5. Done on "Write report", clicked: done in the daemon.
click "Done: 16:00"
wait_today 20 '1 of 3' || fail "Done did not mark the task done: $(as_user /opt/pet/petctl today --plain)"
wait_has 10 "1/3" || fail "the widget did not show 1/3 after Done: $(view last)"
say "a click on Done marked 'Write report' done in the daemon; the widget shows 1/3"

# 6. Add task: "7pm" typed, Tab, a title, Enter. The popup may lay out anew while it is typed into
# (a task turning due on the fast clock re-reads): each attempt clicks the fields where the last
# view has them, selects what they hold and types over it.
wait_has 10 "Undo “Write report”" || fail "no Undo after Done: $(view last)"
added=
for _ in 1 2 3; do
    click "Time, such as"
    as_user xdotool key ctrl+a
    as_user xdotool type --delay 40 '7pm'
    as_user xdotool key Tab ctrl+a  # the keyboard's way to the title field
    as_user xdotool type --delay 40 'Plan the week'
    as_user xdotool key Return
    if wait_today 10 '19:00.*Plan the week'; then
        added=yes
        break
    fi
done
[ -n "$added" ] || { shot plasma-widget-add-failed; fail "Add task did not add 'Plan the week' at 19:00: $(as_user /opt/pet/petctl today --plain) $(view last)"; }
wait_has 10 "Plan the week" || fail "the widget does not list the task it added"
say "Add task added 'Plan the week' at 19:00"
view warnings || fail "QML warnings (above)"
stop_widget

# 7. Languages: German and French words; qps leaves nothing outside the catalogue.
# Qt and gettext ignore LANGUAGE under the C locale: real ones, made from the root's locales.
for ll in de_DE fr_FR; do chroot "$root" localedef -i $ll -f UTF-8 $ll.UTF-8; done
for lang in de_DE:Erledigt fr_FR:Fait; do
    start_widget LANGUAGE="${lang%%_*}" LANG="${lang%%:*}.UTF-8"
    wait_has 30 "${lang#*:}" || fail "no '${lang#*:}' in the ${lang%%:*} widget: $(view last)"
    view warnings || fail "QML warnings in ${lang%%:*} (above)"
    stop_widget
done
start_widget LANGUAGE=qps LANG=de_DE.UTF-8
wait_has 30 "Call the vet" || fail "the qps widget did not show its tasks"
left=$(view escaped 'Call the vet' 'Water the plants' 'Plan the week' 'Write report' 'petctl') \
    || fail "words outside the catalogue in qps: $left"
stop_widget
say "German and French shown; in qps every word of the widget is the catalogue's"

# 8. Screenshots at 1x and 2x, light and dark, each in a widget started for it: plasmawindowed
# sizes its window to the popup once, when it opens, and keeps that size as the content grows (a
# popup in a panel follows it), so a window opened before the tasks were added is too short.
for variant in light dark light-2x dark-2x; do
    look "${variant%%-*}"
    scale=1
    [[ $variant != *-2x ]] || scale=2
    start_widget QT_SCALE_FACTOR=$scale
    wait_has 30 "Plan the week" || fail "the $variant widget did not show its tasks"
    sleep 1
    view warnings || fail "QML warnings in $variant (above)"
    shot "plasma-widget-$variant"
    stop_widget
done
say "the popup's screenshots in $out after $((SECONDS - t0)) s"

# 9. In a plasmashell panel, with petctl's tray beside it (SPEC §8: one pet per session). plasmashell
# (no window manager: Xvfb alone) lays out its default panel; plasmashell's own scripting
# (org.kde.PlasmaShell.evaluateScript) adds the widget to it and later removes it. `petctl tray`
# registers its item with kded6's watcher all along and is Passive (in the tray's hidden part, not in
# the panel) while the widget is in a panel, Active again once it is not; it learns both from the
# layout file plasmashell writes (plasma-org.kde.plasma.desktop-appletsrc).
t=$SECONDS
look light
start_watcher
shell() {  # a plasmashell script; prints what it print()s
    as_user gdbus call --session -d org.kde.plasmashell -o /PlasmaShell -m org.kde.PlasmaShell.evaluateScript "$1"
}
# KDE_DEBUG: a crash ends plasmashell instead of starting DrKonqi. Plasma 6.3's plasmashell without
# a window manager now and then crashes as it lays out the desktop (here: one start in six): it
# gets a second start; the log keeps both.
starts=0
while :; do
    starts=$((starts + 1))
    (as_user_exec env QT_LOGGING_RULES='io.petprogress.plasmoid.debug=true' KDE_DEBUG=1 \
        sh -c 'exec plasmashell --no-respawn >> /tmp/plasmashell.log 2>&1') &
    shell_pid=$!
    for _ in $(seq 150); do
        shell 'print(panels().length)' 2> /dev/null | grep -q "'1" && break 2
        kill -0 $shell_pid 2> /dev/null || break
        sleep 0.2
    done
    [ $starts -lt 2 ] || fail "plasmashell laid out no panel in $starts starts (plasmashell.log)"
    kill $shell_pid 2> /dev/null || true
    wait $shell_pid 2> /dev/null || true
done
thickness=$(shell 'var p = panels()[0]; p.addWidget("io.petprogress.plasmoid"); print(p.height)' | grep -oE '[0-9]+')
panel_has() { python3 "$repo/contrib/plasma/tests/view.py" has "$root/tmp/plasmashell.log" "$@"; }
for _ in $(seq 100); do panel_has "1/4" && break; sleep 0.2; done
panel_has "1/4" && panel_has "Call the vet" \
    || fail "the widget in the panel does not show 1/4 and the next task: $(python3 "$repo/contrib/plasma/tests/view.py" last "$root/tmp/plasmashell.log")"
say "the widget in plasmashell's panel ($thickness px) shows 1/4 and the next task ($((SECONDS - t)) s)"
# The panel: plasmashell's window at the bottom of the screen, the right part (the system tray, the
# clock and the widget) to OUT-DIR/NAME.png; prints how many of its pixels are the symbolic pet's own
# grey (#bebebe): the tray draws the item's symbolic icon as it is, the widget as a mask in the
# panel's text colour, so these pixels are the tray's pet.
panel_shot() {
    local id geometry=
    for id in $(as_user xdotool search --onlyvisible --class plasmashell); do
        geometry=$(as_user xdotool getwindowgeometry --shell "$id" | tr '\n' ' ')
        [[ $geometry == *" Y=0 "* ]] || break  # the desktop covers the screen from 0,0; the panel does not
        geometry=
    done
    [ -n "$geometry" ] || fail "no panel window"
    screen_png "$out/$1.png" "$geometry" 440
    pixels "$out/$1.png" 'p == (190, 190, 190)'
}
grey=$(panel_shot plasma-widget-panel)
[ "$grey" -lt 30 ] || fail "the symbolic pet's grey in the panel before the tray started ($grey pixels)"

# The tray: registered with the watcher, Passive while the widget is in the panel.
t=$SECONDS
in_background "/opt/pet/petctl tray" petctl-tray
tray_pid=$!
for _ in $(seq 150); do pet_item > /dev/null && break; sleep 0.2; done
item=$(pet_item) || fail "petctl tray did not register with the watcher: $(items) $(cat "$root/tmp/petctl-tray.log")"
status() {
    as_user gdbus call --session -d "$item" -o /StatusNotifierItem -m org.freedesktop.DBus.Properties.Get \
        org.kde.StatusNotifierItem Status | grep -oE "[A-Za-z]+'" | tr -d "'"
}
wait_status() {  # STATUS SECONDS
    local end=$((SECONDS + $2))
    while [ $SECONDS -le $end ]; do
        [ "$(status)" = "$1" ] && return 0
        sleep 0.2
    done
    return 1
}
wait_status Passive 30 || fail "the tray item is $(status) with the widget in the panel"
sleep 2  # what the tray would draw, drawn
grey=$(panel_shot plasma-widget-panel-tray-passive)
[ "$grey" -lt 30 ] || fail "the Passive tray item shows in the panel ($grey pixels of the pet's grey)"
say "petctl tray registered ($item) and is Passive beside the widget: not in the panel ($((SECONDS - t)) s)"

# The widget removed from the panel: plasmashell writes the layout, the tray comes back Active.
t=$SECONDS
shell 'panels()[0].widgets("io.petprogress.plasmoid")[0].remove()' > /dev/null
wait_status Active 60 || fail "the tray item stayed $(status) after the widget left the panel"
took=$((SECONDS - t))
for _ in $(seq 20); do
    grey=$(panel_shot plasma-widget-panel-tray-active)
    [ "$grey" -lt 30 ] || break
    sleep 0.5
done
[ "$grey" -ge 30 ] || fail "the Active tray item is not drawn in the panel"
say "the widget removed: the tray item Active after $took s, drawn in the panel ($grey pixels of its grey)"
kill "$tray_pid" "$shell_pid" 2> /dev/null || true
wait "$shell_pid" 2> /dev/null || true
say "the panel's screenshots in $out; $((SECONDS - t0)) s in all"
