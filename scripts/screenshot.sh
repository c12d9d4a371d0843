#!/usr/bin/env bash
# make screenshot: the picture at the top of the README, taken for real. The daemon on a private
# bus, a headless sway, waybar with contrib/waybar's module and the pet's icon, and `petctl today`
# in a foot terminal; grim photographs the screen into docs/screenshot.png.
#
#   scripts/screenshot.sh [BUILD_DIR] [OUT_FILE]      (defaults: .build/debug, docs/screenshot.png)
#
# The day is made by the rules, not by hand: on Sunday 1 March 2026 (Europe/Berlin) fifteen tasks
# are done on time, which raises the Tadpole through the Minnow to a Frog, and the closeout adds the
# day's +3; on Monday Stretch is done at 08:40 and Lunch walk at 12:20, both on time; the picture
# is Monday 13:10. Each moment is a daemon started with --now on the same data.
# KEEP=1 keeps the work directory. Needs sway, waybar, grim, foot, a colour emoji font.
# shellcheck disable=SC1010,SC2119 # `petctl done` is the subcommand; install_icons needs no args
set -euo pipefail

me=screenshot
repo=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$repo/.build/debug}" && pwd)
out=${2:-$repo/docs/screenshot.png}
# shellcheck source=scripts/headless-session.sh
. "$repo/scripts/headless-session.sh"
need_tools sway waybar grim foot setpriv dbus-daemon
session_init

start_bus
# Sunday evening: fifteen tasks, each done within the grace hour of its time.
start_daemon --now 2026-03-01T21:30:00+01:00
for minute in $(seq 0 4 56); do
    petctl add "21:$(printf %02d "$minute")" "Practice scales" >/dev/null
    petctl done >/dev/null
done
stop_daemon
start_daemon --now 2026-03-02T08:40:00+01:00
petctl add 08:30 Stretch >/dev/null
petctl add 12:15 'Lunch walk' >/dev/null
petctl add 14:30 'Write report' >/dev/null
petctl add 18:00 'Water the plants' >/dev/null
petctl add 21:30 Read >/dev/null
petctl done >/dev/null
stop_daemon
start_daemon --now 2026-03-02T12:20:00+01:00
petctl done >/dev/null
stop_daemon
start_daemon --now 2026-03-02T13:10:00+01:00

# The bar as contrib/README.md sets it up with the pet's picture: icons installed per user,
# icons.css imported, and the glyph dropped from the text.
install_icons
waybar_config petprogress-icons.css
sed -i "s|--title-width 32\"|--title-width 32 --template '{done}/{total} {next_time} {next_title}'\"|" \
    "$work/home/.config/waybar/config"
grep -q -- '--template' "$work/home/.config/waybar/config" || { echo "$me: could not set the template" >&2; exit 1; }
own_work

# The terminal is given the size of its tile, so petctl lays the screen out for the width it gets.
start_sway 720x230 'default_border none' 'gaps inner 0'
start waybar waybar
waybar_pid=${pids[-1]}
wait_for 30 runs_watch "$waybar_pid"
start foot foot --hold --window-size-pixels=720x200 --override=pad=12x10 --font 'DejaVu Sans Mono:size=11' \
    sh -c 'petctl today && printf "\033[?25l"'
# Drawn: the Frog's colour at the top of the module, and the terminal's own background; then
# settled: two shots a quarter of a second apart are the same.
frog=$(stage_colour frog)
drawn() { [ "$(pixel 700 2)" = "$frog" ] && [ "$(pixel 4 100)" != 2e3440 ] && [ "$(pixel 40 66)" != "$(pixel 4 100)" ]; }
wait_for 30 drawn
settled() {
    run_as grim "$work/shots/before.png"
    sleep 0.25
    run_as grim "$work/shots/screen.png"
    cmp -s "$work/shots/before.png" "$work/shots/screen.png"
}
wait_for 30 settled
cp "$work/shots/screen.png" "$out"
echo "wrote $out"
