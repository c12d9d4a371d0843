#!/usr/bin/env bash
# The large replies of two daemon builds, interleaved (docs/BENCHMARKS.md, "Large replies").
#
#   bash bench/replies-ab.sh BEFORE_DAEMON AFTER_DAEMON [ROUNDS] [CALLS]
#
# Builds one data directory through AFTER (8 daily tasks over 41 closed days, then 149 tasks on
# the open day), starts both daemons on copies of it, each on its own private bus, and runs
# ROUNDS rounds (default 30): each round times CALLS calls (default 100) of ListTasks(""),
# GetHistory("", "") (31 days) and the routed Ping with bench/rtt on one side, then the other
# (the order alternates). Prints each side's median p50 with the spread over the rounds, each
# daemon's CPU time for the same calls, and the heap (RssAnon) a fresh daemon gains answering 20
# GetHistory then 20 ListTasks calls, three times per build.
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 BEFORE_DAEMON AFTER_DAEMON [ROUNDS] [CALLS]" >&2; exit 64; }
declare -A BIN=([before]=$(realpath "$1") [after]=$(realpath "$2"))
ROUNDS=${3:-30} CALLS=${4:-100}
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
declare -a PIDS=()
trap 'kill "${PIDS[@]}" 2>/dev/null; rm -rf "$work"' EXIT
cd "$work"
export HOME=$work/home XDG_CONFIG_HOME=$work/home/.config
mkdir -p home
cc -O2 -o rtt "$repo/bench/rtt/rtt.c" $(pkg-config --cflags --libs dbus-1)
NAME=io.petprogress.PetProgress1 OBJ=/io/petprogress/PetProgress1
TARGETS=(ListTasks $NAME $OBJ $NAME ListTasks "" GetHistory $NAME $OBJ $NAME GetHistory ,
    Ping $NAME $OBJ org.freedesktop.DBus.Peer Ping -)

# start SIDE DATA NOW: a private bus bus-SIDE and SIDE's daemon on DATA; sets BUS and DAEMON.
start() {
    BUS=$(dbus-daemon --session --address="unix:path=$work/bus-$1" --fork --print-pid </dev/null 2>/dev/null)
    DBUS_SESSION_BUS_ADDRESS="unix:path=$work/bus-$1" "${BIN[$1]}" --data-dir "$2" --now "$3" \
        >>"$work/daemon.log" 2>&1 </dev/null &
    DAEMON=$!
    PIDS+=("$BUS" "$DAEMON")
    for _ in $(seq 100); do
        DBUS_SESSION_BUS_ADDRESS="unix:path=$work/bus-$1" gdbus introspect --session -d $NAME -o $OBJ \
            >/dev/null 2>&1 && return
        sleep 0.1
    done
    echo "the $1 daemon did not start: $(tail -3 "$work/daemon.log")" >&2
    exit 1
}
stop() { kill "$DAEMON" "$BUS"; wait "$DAEMON" 2>/dev/null || true; }
call() {
    local member=$1
    shift
    DBUS_SESSION_BUS_ADDRESS="unix:path=$work/bus-after" gdbus call --session -d $NAME -o $OBJ \
        -m "$NAME.$member" "$@" >/dev/null
}

# The data: each restart on the next day closes the day before (with its 8 daily tasks).
start after "$work/data" 2026-01-20T07:00:00+01:00
for n in $(seq 8); do call AddTaskFor "Daily chore number $n" "$(printf %02d $((8 + n))):15" "" daily; done
stop
for day in $(seq 0 39); do
    start after "$work/data" "$(date -u -d "2026-01-21 +$day days" +%Y-%m-%d)T07:00:00+01:00"
    stop
done
start after "$work/data" 2026-03-02T07:00:00+01:00
for n in $(seq 149); do
    call AddTask "Task $n of a very busy day, with a longer title" \
        "$(printf %02d $((8 + n % 14))):$((10 + n % 50))"
done
stop

now=2026-03-02T09:30:00+01:00
cpu() { awk '{print $14 + $15}' "/proc/$1/stat"; }
declare -A PID CPU0
for side in before after; do
    cp -a data "data-$side"
    start "$side" "$work/data-$side" $now
    PID[$side]=$DAEMON
    CPU0[$side]=$(cpu "$DAEMON")
done
one() { DBUS_SESSION_BUS_ADDRESS="unix:path=$work/bus-$1" ./rtt 1 "$CALLS" 20 "${TARGETS[@]}" | sed "s/^/$1 /"; }
for r in $(seq "$ROUNDS"); do
    if ((r % 2)); then one before; one after; else one after; one before; fi
done >rounds.txt
echo "$ROUNDS interleaved rounds of $CALLS calls per target; median p50 (min–max) over the rounds:"
for label in ListTasks GetHistory Ping; do
    line="  $label:"
    for side in before after; do
        sorted=$(awk -v s=$side -v l=$label '$1 == s && $2 == l {printf "%.2f\n", $4 / 1e6}' rounds.txt | sort -g)
        n=$(wc -l <<<"$sorted")
        line+=" $side $(sed -n "$(((n + 1) / 2))p" <<<"$sorted") ms ($(head -1 <<<"$sorted")–$(tail -1 <<<"$sorted"))"
    done
    echo "$line"
done
for side in before after; do
    echo "  $side daemon CPU for those calls: $(($(cpu "${PID[$side]}") - ${CPU0[$side]}))0 ms"
done
for side in before after; do
    kill "${PID[$side]}"
    wait "${PID[$side]}" 2>/dev/null || true
done

kib() { awk -v k="$2:" '$1 == k {print $2}' "/proc/$1/status"; }
echo "heap (RssAnon) of a fresh daemon: after start → after 20 GetHistory → after 20 ListTasks"
for _ in 1 2 3; do
    for side in before after; do
        rm -rf data-m
        cp -a data data-m
        start "$side" "$work/data-m" $now
        export DBUS_SESSION_BUS_ADDRESS="unix:path=$work/bus-$side"
        ./rtt 1 1 0 "${TARGETS[@]:12:6}" >/dev/null
        a=$(kib "$DAEMON" RssAnon)
        ./rtt 1 20 0 "${TARGETS[@]:6:6}" >/dev/null
        b=$(kib "$DAEMON" RssAnon)
        ./rtt 1 20 0 "${TARGETS[@]:0:6}" >/dev/null
        echo "  $side: $a → $b → $(kib "$DAEMON" RssAnon) KiB"
        stop
    done
done
