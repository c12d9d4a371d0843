#!/usr/bin/env bash
# make run as a person runs it (scripts/run.sh), without a session bus:
# - the first run starts a private bus and the daemon; what it prints fits 80 columns; the line to
#   source and then each "Next, try" line work pasted into another shell (another directory, no
#   DBUS_SESSION_BUS_ADDRESS, petctl not on PATH);
# - a second run from a new terminal reuses that bus and daemon, and starts nothing; the line to
#   source is said to be for make run's own shell too; the stop line stops the daemon and the bus;
# - a daemon found by its data directory's lock is reused on its own bus;
# - a daemon that fails to start leaves no dbus-daemon behind;
# - without XDG_RUNTIME_DIR the bus is remembered in the cache directory and the log is in the
#   user's private state directory, never a fixed /tmp name;
# - petctl's "cannot reach" sentence names make run's file, not a systemd unit.
set -euo pipefail
bin=$(realpath "${1:?usage: check-run.sh BUILD_DIR}")
cd "$(dirname "$0")/.."
work=$(mktemp -d)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT
status=0
fail() { echo "check-run: $*"; status=1; }
# The pids run.sh reports (the bus's and the daemon's) are ours to stop.
collect() { mapfile -t -O "${#pids[@]}" pids < <(grep -o '(pid [0-9]*' "$1" | grep -o '[0-9]*'); }
run() { # HOME [extra env…] -> runs run.sh as a fresh terminal would, output in $out
    local home=$1
    shift
    out=$work/out.$RANDOM
    env -i PATH=/usr/bin:/bin HOME="$home" COLUMNS=80 TERM=dumb "$@" \
        bash scripts/run.sh "$bin/petprogressd" "$bin/petctl" >"$out" 2>&1
}
alive() { kill -0 "$1" 2>/dev/null; }

# 1. The first run, with a runtime directory but no bus.
home=$work/a
mkdir -p -m 0700 "$home" "$work/run-a"
run "$home" XDG_RUNTIME_DIR="$work/run-a" || { cat "$out"; fail "the first make run failed"; exit 1; }
first=$out
collect "$first"
[ "${#pids[@]}" = 2 ] || { cat "$first"; fail "expected a private bus and a daemon"; exit 1; }
bus_pid=${pids[0]}
# Columns as characters (awk counts bytes, and the progress bar is three a character).
python3 -c '
import sys
bad = [l for l in open(sys.argv[1], encoding="utf-8").read().splitlines() if len(l) > 80]
for l in bad: print("check-run: wider than 80 columns: " + l)
sys.exit(1 if bad else 0)' "$first" || status=1
# The line to source is for the shell make run ran in too (a child cannot change its shell).
source_line=$(sed -n '/^First, in this shell and in each new one/{n;p}' "$first" | sed 's/^  //')
[ -n "$source_line" ] || { cat "$first"; fail "no line to source, for this shell and new ones"; }
grep -qx "Stop it and its private bus with: kill ${pids[1]} $bus_pid" "$first" ||
    { cat "$first"; fail "the first run's stop line does not name the daemon and its private bus"; }
[ -f "$work/run-a/petprogress/make-run.env" ] || fail "the bus is not remembered in the runtime directory"
grep -q "Its log: ~/.local/state/petprogress/petprogressd.log" "$first" || fail "the log is not in the state directory"
[ -s "$home/.local/state/petprogress/petprogressd.log" ] || fail "the daemon's log is empty or missing"
[ "$(stat -c %a "$home/.local/state/petprogress")" = 700 ] || fail "the log directory is not 0700"
while IFS= read -r line; do
    command=${line%%  #*}
    if ! (cd / && env -i PATH=/usr/bin:/bin HOME="$home" bash -c "$source_line && $command") >>"$work/pasted" 2>&1; then
        fail "pasted into another shell after '$source_line', this failed: $command"
    fi
done < <(sed -n '/^Next, try:$/,$p' "$first" | tail -n +2 | sed 's/^  //')
grep -q 'Added' "$work/pasted" || fail "no Next line added a task"

# 2. A second run from a new terminal: the same bus, the same daemon, nothing started.
run "$home" XDG_RUNTIME_DIR="$work/run-a" || { cat "$out"; fail "the second make run failed"; }
second=$out
grep -q 'private one was started' "$second" && fail "the second make run started another bus"
grep -q "already running (pid ${pids[1]})" "$second" || { cat "$second"; fail "the second make run did not reuse the daemon"; }
grep -q 'Water the plants' "$second" || fail "the second make run's Today screen lacks the task"
alive "$bus_pid" || fail "the first bus died"

# 3. petctl with no bus: the sentence says how make run's daemon is reached.
unreachable=$(env -i PATH=/usr/bin:/bin HOME="$home" XDG_RUNTIME_DIR="$work/run-a" "$bin/petctl" today 2>&1 || true)
case $unreachable in
    *"make run started it: run . "*"make-run.env"*) ;;
    *) fail "petctl's unreachable sentence: $unreachable" ;;
esac

# 4. The daemon holds the data directory but nothing remembers its bus (the runtime directory
#    was cleared): make run finds it by its lock and reuses it.
rm -rf "$work/run-a/petprogress"
run "$home" XDG_RUNTIME_DIR="$work/run-a" || { cat "$out"; fail "make run beside a running daemon failed"; }
grep -q 'private one was started' "$out" && fail "make run beside a running daemon started a bus"
grep -q "already running (pid ${pids[1]})" "$out" || { cat "$out"; fail "the running daemon was not found by its lock"; }
# What the second run said to stop it with stops the daemon and the bus make run started.
stop_command=$(sed -n 's/^Stop it and its private bus with: //p' "$second")
[ "$stop_command" = "kill ${pids[1]} $bus_pid" ] || { cat "$second"; fail "the second run's stop line: '$stop_command'"; }
bash -c "$stop_command" || fail "the stop line failed: $stop_command"
for _ in $(seq 1 40); do alive "${pids[1]}" || alive "$bus_pid" || break; sleep 0.05; done
alive "${pids[1]}" && fail "the stop line left the daemon running"
alive "$bus_pid" && fail "the stop line left make run's dbus-daemon running"

# 5. A daemon that cannot start: the bus make run started is stopped again.
home=$work/b
mkdir -p -m 0700 "$home"
out=$work/out.false
env -i PATH=/usr/bin:/bin HOME="$home" bash scripts/run.sh /bin/false "$bin/petctl" >"$out" 2>&1 && fail "make run with a failing daemon succeeded"
failed_bus=$(grep -o '(pid [0-9]*' "$out" | grep -o '[0-9]*' | head -n 1)
if [ -n "$failed_bus" ]; then
    pids+=("$failed_bus")
    for _ in $(seq 1 40); do alive "$failed_bus" || break; sleep 0.05; done
    alive "$failed_bus" && fail "a failed make run left its dbus-daemon (pid $failed_bus) running"
else
    cat "$out"
    fail "make run with a failing daemon did not say which bus it started"
fi
[ -e "$home/.cache/petprogress/make-run.state" ] && fail "a failed make run remembered a dead bus"

# 6. No XDG_RUNTIME_DIR: remembered in the cache directory; a second run reuses it.
run "$home" || { cat "$out"; fail "make run without XDG_RUNTIME_DIR failed"; }
collect "$out"
[ -f "$home/.cache/petprogress/make-run.env" ] || fail "without XDG_RUNTIME_DIR nothing is remembered in ~/.cache"
grep -q '^  \. ~/\.cache/petprogress/make-run\.env$' "$out" || { cat "$out"; fail "the line to source is not ~/.cache/…"; }
grep -q '/tmp/petprogress' "$out" && fail "make run printed a fixed /tmp name"
run "$home" || fail "the second make run without XDG_RUNTIME_DIR failed"
grep -q 'private one was started' "$out" && fail "the second make run without XDG_RUNTIME_DIR started another bus"

[ "$status" = 0 ] && echo "check-run: make run reuses its bus and daemon; its lines fit 80 columns and work pasted"
exit "$status"
