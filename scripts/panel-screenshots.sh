#!/usr/bin/env bash
# Runs the contrib/ panel configs for real and photographs them: the real daemon on a private bus
# with a simulated clock (2026-03-02 13:10, Europe/Berlin), waybar in a headless sway, polybar
# under Xvfb, i3blocks feeding i3bar under Xvfb with i3, and i3blocks' raw i3bar-protocol output.
# The same moments are taken on every panel, first of an ordinary day (the pictures contrib/README.md
# shows): empty, an overdue task, a due one, the next one ahead, all done, the daemon stopped; then,
# on fresh data, of hostile titles (markup and a polybar tag in a due task's title, that task
# snoozed, a title with quotes and a backslash, the daemon stopped). Then waybar shows
# style.css's colour for each of the 20 stages and each state. Not part of make test.
#
#   scripts/panel-screenshots.sh [BUILD_DIR] [OUT_DIR]      (defaults: .build/debug, docs)
#
# Writes OUT_DIR/panel-waybar.png, panel-polybar.png, panel-i3blocks.png (one cropped row per
# moment of the ordinary day), the same three as panel-*-hostile.png for the hostile titles,
# panel-waybar-stages.png, and prints the i3blocks lines. KEEP=1 keeps the work
# directory (every shot and log); ICON_DIR=DIR also shoots the stages with the pet art of DIR
# (pet_<stage>.png) through contrib/waybar/icons.css, to panel-waybar-icons.png.
# Needs (Debian 12): sway waybar grim polybar i3-wm i3blocks xvfb x11-apps imagemagick
# fonts-dejavu-core fonts-noto-color-emoji. sway refuses to run as root, so as root every panel
# and the daemon run as uid 65534 (setpriv); as another user, as that user.
# shellcheck disable=SC1010,SC2119 # `petctl done` is the subcommand; waybar_config needs no args
set -euo pipefail

me="panel-screenshots"
repo=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$repo/.build/debug}" && pwd)
out=$(mkdir -p "${2:-$repo/docs}" && cd "${2:-$repo/docs}" && pwd)
# shellcheck source=scripts/headless-session.sh
. "$repo/scripts/headless-session.sh"
need_tools sway waybar grim polybar Xvfb xwd convert i3 i3blocks setpriv dbus-daemon
session_init
mkdir -p "$work/home/.config/i3blocks"
# Set up as contrib/README.md tells a user: the i3blocks script beside its config, and waybar's
# own config and style.css importing ours above waybar's default style.
cp "$repo/contrib/i3blocks/petprogress" "$work/home/.config/i3blocks/"
waybar_config

# The bus and the daemon.
start_bus
start_daemon --now 2026-03-02T13:10:00+01:00

# waybar in a headless sway.
start_sway 1280x720
start waybar waybar
waybar_pid=${pids[-1]}

# An X server per X panel: polybar alone (no window manager), i3 with i3bar and i3blocks.
# Xvfb run by another user must find /tmp/.X11-unix made by root, or it makes it its own.
[ "$(id -u)" != 0 ] || [ -d /tmp/.X11-unix ] || install -d -m 1777 /tmp/.X11-unix
display_free() {
    [ ! -e "/tmp/.X$1-lock" ] && [ ! -e "/tmp/.X11-unix/X$1" ] && ! grep -q "@/tmp/.X11-unix/X$1\$" /proc/net/unix
}
start_x() { # name, variable: starts an X server on the first free display from :90, names it
    local n=90
    until display_free "$n"; do n=$((n + 1)); done
    start "$1" Xvfb ":$n" -screen 0 1280x200x24 -nolisten tcp
    wait_for 10 test -S "/tmp/.X11-unix/X$n"
    printf -v "$2" ':%s' "$n"
}
polybar_display="" i3_display=""
start_x xvfb-polybar polybar_display
start_x xvfb-i3 i3_display
start polybar env DISPLAY="$polybar_display" polybar -q -c "$repo/contrib/polybar/config.ini" petprogress
polybar_pid=${pids[-1]}
cat >"$work/i3.conf" <<EOF
# i3 config file (v4)
font pango:DejaVu Sans 11
bar {
    position top
    status_command i3blocks -c $repo/contrib/i3blocks/config
    tray_output none
    workspace_buttons no
}
EOF
start i3 env DISPLAY="$i3_display" i3 -c "$work/i3.conf"
# i3blocks on its own, to read the i3bar protocol it prints.
(exec_as i3blocks -c "$repo/contrib/i3blocks/config") </dev/null >"$work/i3blocks.out" 2>"$work/i3blocks.log" &
pids+=("$!")
i3blocks_pid=$!
disown "$i3blocks_pid" # i3blocks 1.4 dies of its own SIGRTMIN once stopped: not worth a report

# Each panel's exec child must be up before the first moment.
i3bar_up() {
    i3bar_pid=$(for pid in $(marked); do grep -q '^i3bar' "/proc/$pid/cmdline" 2>/dev/null && echo "$pid"; done)
    [ -n "$i3bar_pid" ]
}
wait_for 20 i3bar_up
for pid in "$waybar_pid" "$polybar_pid" "$i3bar_pid" "$i3blocks_pid"; do wait_for 20 runs_watch "$pid"; done

shoot() { # SET MOMENT: each panel's picture of this moment, listed in the set's moments
    local set=$1 moment=$2
    sleep 1.5 # watch prints at once; give the panels a redraw
    run_as grim -g "0,0 1280x30" "$work/shots/waybar-$moment.png"
    run_as sh -c "xwd -root -display $polybar_display -silent > $work/shots/polybar-$moment.xwd"
    run_as sh -c "xwd -root -display $i3_display -silent > $work/shots/i3-$moment.xwd"
    tail -n 1 "$work/i3blocks.out" | sed "s/^/  $moment: /" >>"$work/i3blocks.moments"
    [ "$set" = ordinary ] && ordinary+=("$moment") || hostile+=("$moment")
}
ordinary=() hostile=()

# An ordinary day at 13:10, with the hour's grace: 12:00 is overdue, 13:00 due (still on time).
shoot ordinary empty
petctl add 09:00 Stretch >/dev/null
petctl add 12:00 'Lunch with Sam' >/dev/null
petctl add 13:00 'Call the dentist' >/dev/null
petctl add 15:00 'Write report' >/dev/null
petctl add 18:00 'Water the plants' >/dev/null
petctl done >/dev/null # Stretch; Lunch with Sam is next
shoot ordinary overdue
petctl done >/dev/null
shoot ordinary due
petctl done >/dev/null
shoot ordinary next
petctl done >/dev/null && petctl done >/dev/null
shoot ordinary all-done

# Hostile titles, on fresh data: none may restyle, recolour or click a panel.
stop_daemon
rm -rf "$work/data" && mkdir -m 0700 "$work/data"
own_work
start_daemon --now 2026-03-02T13:10:00+01:00
petctl add 09:00 Stretch >/dev/null
petctl add 12:30 'Tom & Jerry <b>x</b> %{F#f00}red' >/dev/null
petctl add 15:00 'Write report' >/dev/null
petctl add 18:00 'Water the plants' >/dev/null
petctl add 19:00 'Say "hi" to C:\temp' >/dev/null
petctl done >/dev/null # Stretch; the hostile title is next, due
shoot hostile markup
petctl snooze >/dev/null
shoot hostile snoozed
petctl done >/dev/null && petctl done >/dev/null && petctl done >/dev/null
shoot hostile quotes
kill "$daemon_pid"
shoot hostile stopped
ordinary+=(stopped)

# One row per moment: a label, then the right end of the bar where the module sits.
compose() { # panel, width of the bar's right end to keep, shot suffix, output file, moments...
    local panel=$1 keep=$2 ext=$3 file=$4 rows=() m
    shift 4
    for m in "$@"; do
        convert "$ext:$work/shots/$panel-$m.$ext" -crop "${keep}x30+$((1280 - keep))+0" +repage \
            \( -size 90x30 xc:'#1d2021' -font DejaVu-Sans -pointsize 12 -fill '#c5c8c6' \
            -gravity west -annotate +8+0 "$m" \) +swap +append "$work/row-$panel-$m.png"
        rows+=("$work/row-$panel-$m.png")
    done
    convert "${rows[@]}" -background '#1d2021' -splice 0x2 -append -strip "$file"
}
compose waybar 520 png "$out/panel-waybar.png" "${ordinary[@]}"
compose polybar 520 xwd "$out/panel-polybar.png" "${ordinary[@]}"
compose i3 520 xwd "$out/panel-i3blocks.png" "${ordinary[@]}"
compose waybar 520 png "$out/panel-waybar-hostile.png" "${hostile[@]}"
compose polybar 520 xwd "$out/panel-polybar-hostile.png" "${hostile[@]}"
compose i3 520 xwd "$out/panel-i3blocks-hostile.png" "${hostile[@]}"

# The stylesheet alone: two bars of fixed records, one module per stage, then the states (waybar
# stacks a later bar above an earlier one).
stop_tree "$waybar_pid"
mkdir "$work/records"
bar_json() { # NAME RECORD...: a bar with one module per record ("class,class|text"), printing it
    local name=$1 modules="" blocks="" n=0 record classes file
    shift
    for record in "$@"; do
        n=$((n + 1))
        classes=${record%%|*}
        file="$work/records/$name-$n"
        printf '{"text":"%s","class":["%s"]}\n' "${record#*|}" "${classes//,/\",\"}" >"$file"
        modules+="${modules:+,}\"custom/petprogress#$name$n\""
        blocks+=",\"custom/petprogress#$name$n\":{\"return-type\":\"json\",\"exec\":\"cat $file\"}"
    done
    printf '{"layer":"top","height":30,"modules-left":[%s]%s}' "$modules" "$blocks"
}
glyphs=(🫧 🐟 🐸 🦀 ⭐ 🪼 🦑 🐴 🐬 🦈 🦦 🦊 🐆 🐺 🐻 🦬 🐘 🦏 🦁 ✨)
stages=(tadpole minnow frog hermit starfish jellyfish squid seahorse dolphin shark otter fox lynx wolf bear bison elephant
    rhino lion god)
stage_records=()
for i in "${!stages[@]}"; do stage_records+=("${stages[i]}|${glyphs[i]} $((i + 1))"); done
state_records=()
for state in frog frog,due frog,overdue frog,all-done frog,no-tasks frog,rest god god,overdue god,no-tasks stopped; do
    state_records+=("$state|${state/,/ }")
done
printf '[%s,%s]\n' "$(bar_json state "${state_records[@]}")" "$(bar_json stage "${stage_records[@]}")" \
    >"$work/stages.json"
start waybar-stages waybar -c "$work/stages.json"
sleep 3
run_as grim -g "0,0 1280x60" "$work/shots/waybar-stages.png"
convert "$work/shots/waybar-stages.png" -crop 1220x60+0+0 +repage -strip "$out/panel-waybar-stages.png"

# With ICON_DIR=DIR holding the art (pet_<stage>.png), the same bars with contrib/waybar/icons.css,
# set up for a per-user install as the README says.
if [ -n "${ICON_DIR:-}" ]; then
    stop_tree "${pids[-1]}"
    install_icons "$ICON_DIR"
    { printf '@import "petprogress.css";\n@import "petprogress-icons.css";\n' && cat /etc/xdg/waybar/style.css; } \
        >"$work/home/.config/waybar/icons-style.css"
    own_work
    start waybar-icons waybar -c "$work/stages.json" -s "$work/home/.config/waybar/icons-style.css"
    sleep 3
    run_as grim -g "0,0 1280x60" "$work/shots/waybar-icons.png"
    convert "$work/shots/waybar-icons.png" -crop 1280x60+0+0 +repage -strip "$out/panel-waybar-icons.png"
    echo "wrote $out/panel-waybar-icons.png"
fi

echo "i3blocks printed (the last bar line at each moment):"
cat "$work/i3blocks.moments"
echo "wrote $out/panel-{waybar,polybar,i3blocks}{,-hostile}.png $out/panel-waybar-stages.png"
