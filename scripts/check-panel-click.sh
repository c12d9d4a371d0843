#!/usr/bin/env bash
# "Done from the widget", end to end (run by make test): the real daemon on a private
# bus, waybar running contrib/waybar's module in a headless sway, and a mouse that clicks it.
#
#   scripts/check-panel-click.sh [BUILD_DIR]        (default .build/debug)
#
# A headless sway has no input device, so scripts/virtual-pointer.py lends its seat a virtual
# pointer (start_pointer); sway's own `seat - cursor set/press/release` commands then click the
# module, and waybar runs the module's on-click command as it would for a user. What happened is
# read back from the daemon (ListTasks over the bus, with busctl), never from the panel's own output:
#   left click   the next task (overdue) is done, and nothing else is
#   right click  the task after it is snoozed by the snooze length, and still not done
# KEEP=1 keeps the work directory (logs, sway config). Needs sway, waybar, grim, busctl, python3.
# shellcheck disable=SC1010,SC2119 # `done` is a field and a subcommand; waybar_config needs no args
set -euo pipefail

me="check-panel-click"
repo=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$repo/.build/debug}" && pwd)
# shellcheck source=scripts/headless-session.sh
. "$repo/scripts/headless-session.sh"
need_tools sway swaymsg waybar grim busctl python3 setpriv dbus-daemon
session_init

width=1280

start_bus
start_daemon --now 2026-03-02T13:10:00+01:00
petctl add 09:00 Stretch >/dev/null
petctl add 15:00 'Write report' >/dev/null
petctl add 18:00 'Water the plants' >/dev/null
waybar_config

start_sway "${width}x200"
start_pointer

start waybar waybar
waybar_pid=${pids[-1]}
wait_for 30 runs_watch "$waybar_pid"
# Drawn: the module's stage colour (a new pet is a Tadpole) at the top of its right end.
x=$((width - 40))
tadpole=$(stage_colour tadpole)
module_drawn() { [ "$(pixel "$x" 2)" = "$tadpole" ]; }
wait_for 30 module_drawn

# Field FIELD of the open day's task titled TITLE, from the daemon.
task_field() {
    run_as busctl --user --json=short call io.petprogress.PetProgress1 /io/petprogress/PetProgress1 \
        io.petprogress.PetProgress1 ListTasks s "" 2>>"$work/busctl.log" |
        python3 -c 'import json, sys
title, field = sys.argv[1:]
for task in json.load(sys.stdin)["data"][0]:
    if task["title"]["data"] == title:
        print(str(task[field]["data"]).lower())' "$1" "$2"
}
done_count() {
    run_as busctl --user --json=short call io.petprogress.PetProgress1 /io/petprogress/PetProgress1 \
        io.petprogress.PetProgress1 ListTasks s "" 2>>"$work/busctl.log" |
        python3 -c 'import json, sys; print(sum(t["done"]["data"] for t in json.load(sys.stdin)["data"][0]))'
}
# Polls for at most SECONDS until `task_field TITLE FIELD` prints VALUE.
field_becomes() {
    local deadline=$((SECONDS + $1))
    until [ "$(task_field "$2" "$3")" = "$4" ]; do
        [ "$SECONDS" -lt "$deadline" ] || return 1
        sleep 0.1
    done
}

[ "$(task_field Stretch done)" = false ] || fail "Stretch was done before any click"
click "$x" button1
field_becomes 20 Stretch done true || fail "a left click on the module did not mark the next task (Stretch) done"
pass "left click: the next task, Stretch, is done"
[ "$(done_count)" = 1 ] || fail "a left click marked $(done_count) tasks done, not 1"
pass "left click: only that task is done"

# The right click snoozes the next task, Write report (15:00), to 15:15 (the default 15 minutes).
click "$x" button3
field_becomes 20 'Write report' effective_time 15:15 ||
    fail "a right click did not snooze the next task (Write report) to 15:15"
pass "right click: the next task, Write report, is snoozed to 15:15"
[ "$(done_count)" = 1 ] || fail "after the right click $(done_count) tasks are done, not 1"
pass "right click: nothing more is done"

echo "$passed passed, 0 failed"
