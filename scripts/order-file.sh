#!/usr/bin/env bash
# Writes scripts/petprogressd.order: the functions petprogressd runs from exec to its first answers,
# as valgrind's callgrind sees them, for `make release` to link side by side (lld's
# --symbol-ordering-file). The kernel maps a binary's code 64 KiB around each page fault, so code
# run at start-up that lies scattered over the 9 MB of text keeps far more of it resident than
# the same code packed together (docs/BENCHMARKS.md: 11.4 MiB → 9.3 MiB after start-up).
# A stale list only costs that locality, never correctness; `order-file.sh check` counts how many
# of its symbols the binary still has. Needs valgrind (apt-get install valgrind).
# petctl is recorded too (its tray, watch and today), into the same list.
#   usage: order-file.sh [check] PATH/TO/petprogressd [PATH/TO/petctl]
set -euo pipefail
cd "$(dirname "$0")/.."
order=scripts/petprogressd.order
if [ "${1:-}" = check ]; then
    daemon=${2:?usage: order-file.sh check PATH/TO/petprogressd}
    present=$(nm "$daemon" | awk '{print $NF}' | sort -u | comm -12 - <(sort -u "$order") | wc -l)
    echo "order file: $present of $(wc -l <"$order") symbols are in $daemon"
    exit 0
fi
daemon=${1:?usage: order-file.sh PATH/TO/petprogressd [PATH/TO/petctl]}
petctl=${2:-$(dirname "$daemon")/petctl}
work=$(mktemp -d)
bus_pid=
trap '[ -n "$bus_pid" ] && kill "$bus_pid"; rm -rf "$work"' EXIT
dbus-daemon --session --fork --nopidfile --print-address=1 --print-pid=1 >"$work/bus"
export DBUS_SESSION_BUS_ADDRESS=$(sed -n 1p "$work/bus")
bus_pid=$(sed -n 2p "$work/bus")
call() {
    local member=$1
    shift
    gdbus call --session --dest io.petprogress.PetProgress1 --object-path /io/petprogress/PetProgress1 \
        --method "io.petprogress.PetProgress1.$member" "$@" >/dev/null 2>&1
}
# A day like a user's, so the starts after it load tasks, a template and a completion.
plan() {
    call AddTask Stretch 07:00
    call AddTask "Write report" 14:30
    call AddTaskFor Read 21:00 today daily
    call AddTaskFor Dentist 09:30 tomorrow ""
    call MarkNextDone
}
# Four recorded starts, so the list covers what a start runs whatever the store holds and whichever
# clock it reads: on the real clock and on a simulated one (as `make bench` starts it), each first
# with no state file (it writes one, and plans a day) and then loading it.
run() { # run DATA-DIRECTORY OUTPUT [daemon arguments]
    local data=$1 out=$2 fresh=
    shift 2
    [ -d "$work/$data" ] || fresh=1
    valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/callgrind.$out" \
        "$daemon" --data-dir "$work/$data" "$@" 2>/dev/null &
    pid=$!
    for _ in $(seq 1 300); do call GetWidgetEntry && break; sleep 0.1; done
    call GetStatus
    [ -z "$fresh" ] || plan
    kill "$pid"
    wait "$pid" || true
}
run real 1
run real 2
run simulated 3 --now 2026-03-02T08:10:00Z
run simulated 4 --now 2026-03-02T08:10:00Z
# petctl's long-running clients (the tray, with a host reading its pixmap, and watch) and its
# Today screen, against a running daemon: the same list orders petctl's link (lld skips the names a
# binary lacks), whose text pages are most of what the tray keeps resident.
"$daemon" --data-dir "$work/real" 2>/dev/null &
daemon_pid=$!
for _ in $(seq 1 300); do call GetWidgetEntry && break; sleep 0.1; done
grind_petctl() { # OUTPUT SECONDS petctl-arguments (SECONDS 0: until it exits by itself)
    local out=$1 seconds=$2
    shift 2
    valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/petctl.$out" "$petctl" "$@" >/dev/null 2>&1 &
    pid=$!
    if [ "$seconds" != 0 ]; then
        sleep "$seconds"
        busctl --user get-property "org.kde.StatusNotifierItem-$pid-1" /StatusNotifierItem \
            org.kde.StatusNotifierItem IconPixmap >/dev/null 2>&1 || true
        sleep 1
        kill -TERM "$pid"
    fi
    wait "$pid" || true
}
grind_petctl 1 0 today
grind_petctl 2 5 watch
grind_petctl 3 5 tray
kill "$daemon_pid"
wait "$daemon_pid" || true
# callgrind names each object and function once, as "ob=(n) name" / "fn=(n) name", then by number.
functions() { # EXECUTABLE CALLGRIND-FILES...
    local exe
    exe=$(readlink -f "$1")
    shift
    awk -v exe="$exe" '
        match($0, /^c?ob=\([0-9]+\)/) { id = substr($0, RSTART, RLENGTH); sub(/^c/, "", id); name = substr($0, RLENGTH + 2)
            if (name != "") obs[id] = name; if ($0 ~ /^ob=/) inexe = (obs[id] == exe) }
        match($0, /^c?fn=\([0-9]+\)/) { id = substr($0, RSTART, RLENGTH); sub(/^c/, "", id); name = substr($0, RLENGTH + 2)
            if (name != "") fns[id] = name; if ($0 ~ /^fn=/ && inexe && fns[id] !~ /^0x/) print fns[id] }
    ' "$@" | sed "s/'[0-9]*$//"
}
{ functions "$daemon" "$work"/callgrind.? && functions "$petctl" "$work"/petctl.?; } | sort -u >"$order"
echo "wrote $order: $(wc -l <"$order") functions; relink with: rm -f $daemon $petctl && make release"
