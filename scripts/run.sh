#!/usr/bin/env bash
# make run: start petprogressd on the session bus (or on a private bus when there is none) and show
# the Today screen. Leaves the daemon running in the background and says how to stop it.
#
# A second `make run` (another terminal, later today) finds the daemon already running and reuses
# it: the private bus it started is remembered in the user's runtime directory (else their cache
# directory), and a daemon that holds the data directory is found by its lock wherever it came
# from. Nothing it starts is left behind when it fails. Its log goes in the user's own state
# directory (0700), never a fixed /tmp name (docs/DECISIONS.md).
set -euo pipefail
daemon=${1:?usage: run.sh PATH/TO/petprogressd PATH/TO/petctl}
petctl=${2:?usage: run.sh PATH/TO/petprogressd PATH/TO/petctl}
name=io.petprogress.PetProgress1
# The commands printed below must work pasted into any shell, in any directory.
petctl=$(realpath "$petctl")
daemon=$(realpath "$daemon")
uid=$(id -u)
: "${HOME:?make run needs HOME}"

# A directory of the user's own, 0700: created when missing, refused when it is a link or another's.
private_dir() {
    mkdir -p "$1"
    if [ -L "$1" ] || [ "$(stat -c %u "$1")" != "$uid" ]; then
        echo "make run: $1 is not a directory of yours; remove it or set XDG_STATE_HOME/XDG_CACHE_HOME" >&2
        exit 1
    fi
    chmod 0700 "$1"
}

if [ -n "${XDG_RUNTIME_DIR:-}" ] && [ -d "$XDG_RUNTIME_DIR" ] && [ -O "$XDG_RUNTIME_DIR" ]; then
    remember_dir=$XDG_RUNTIME_DIR/petprogress
else
    remember_dir=${XDG_CACHE_HOME:-$HOME/.cache}/petprogress
fi
log_dir=${XDG_STATE_HOME:-$HOME/.local/state}/petprogress
private_dir "$remember_dir"
private_dir "$log_dir"
# What a shell sources to reach what make run started (the bus, petctl on PATH), and what make run
# itself reads back (the bus and its pid, the daemon's pid), one `key value` a line.
env_file=$remember_dir/make-run.env
state_file=$remember_dir/make-run.state
log=$log_dir/petprogressd.log
data_dir=${XDG_DATA_HOME:-$HOME/.local/share}/petprogress

bus_works() { dbus-send --bus="$1" --print-reply --dest=org.freedesktop.DBus / org.freedesktop.DBus.GetId >/dev/null 2>&1; }
owned() {
    dbus-send --bus="$DBUS_SESSION_BUS_ADDRESS" --print-reply --dest=org.freedesktop.DBus / \
        org.freedesktop.DBus.NameHasOwner "string:$name" 2>/dev/null | grep -q 'boolean true'
}
owner_pid() {
    dbus-send --bus="$DBUS_SESSION_BUS_ADDRESS" --print-reply --dest=org.freedesktop.DBus / \
        org.freedesktop.DBus.GetConnectionUnixProcessID "string:$name" 2>/dev/null | sed -n 's/.*uint32 //p'
}
remembered() {
    [ -f "$state_file" ] || return 0
    sed -n "s/^$1 //p" "$state_file" | head -n 1
}
# A path as the user would type it: ~ for the home directory.
tilde() {
    local q qh
    q=$(printf '%q' "$1")
    qh=$(printf '%q' "$HOME")
    case $q in "$qh"/*) q="~${q#"$qh"}" ;; esac
    printf '%s' "$q"
}

# The petprogressd that holds the data directory's lock (/proc/locks: FLOCK … pid maj:min:inode),
# whichever bus it is on; nothing when none does.
lock_holder() {
    local lock=$data_dir/.lock inode
    [ -f "$lock" ] || return 0
    inode=$(stat -c %i "$lock")
    awk -v inode="$inode" '$2 == "FLOCK" { split($6, f, ":"); if (f[3] == inode) { print $5; exit } }' /proc/locks
}
# The bus a running daemon was started on, from its environment (ours to read: our own process).
bus_of() {
    local environ=/proc/$1/environ address runtime
    [ -r "$environ" ] || return 0
    address=$(tr '\0' '\n' <"$environ" | sed -n 's/^DBUS_SESSION_BUS_ADDRESS=//p' | head -n 1)
    runtime=$(tr '\0' '\n' <"$environ" | sed -n 's/^XDG_RUNTIME_DIR=//p' | head -n 1)
    if [ -z "$address" ] && [ -n "$runtime" ]; then address="unix:path=$runtime/bus"; fi
    printf '%s' "$address"
}

started_bus=""
private_bus=""
if [ -z "${DBUS_SESSION_BUS_ADDRESS:-}" ] && [ -n "${XDG_RUNTIME_DIR:-}" ] && [ -S "$XDG_RUNTIME_DIR/bus" ]; then
    export DBUS_SESSION_BUS_ADDRESS="unix:path=$XDG_RUNTIME_DIR/bus"
fi
holder=$(lock_holder)
if [ -n "$holder" ] && kill -0 "$holder" 2>/dev/null; then
    # A daemon is already running on this data directory: go where it is.
    address=$(bus_of "$holder")
    if [ -n "$address" ] && bus_works "$address"; then
        [ "$address" = "${DBUS_SESSION_BUS_ADDRESS:-}" ] || private_bus=$address
        export DBUS_SESSION_BUS_ADDRESS="$address"
    else
        echo "petprogressd is already running (pid $holder) on $data_dir, on a bus this shell cannot reach." >&2
        echo "Stop it with: kill $holder   (then make run again)" >&2
        exit 1
    fi
elif [ -n "${DBUS_SESSION_BUS_ADDRESS:-}" ] && bus_works "$DBUS_SESSION_BUS_ADDRESS"; then
    :
elif address=$(remembered bus) && [ -n "$address" ] && bus_works "$address"; then
    # The private bus an earlier make run started, still there.
    export DBUS_SESSION_BUS_ADDRESS="$address"
    private_bus=$address
else
    read -r address pid < <(dbus-daemon --session --fork --nopidfile --print-address=1 --print-pid=1 | paste -sd' ')
    export DBUS_SESSION_BUS_ADDRESS="$address"
    started_bus=$pid
    private_bus=$address
    echo "No session bus was reachable, so a private one was started (pid $pid)."
    printf 'bus %s\nbus_pid %s\n' "$address" "$pid" >"$state_file"
fi

# The private bus make run started (now or in an earlier run), when it is still that dbus-daemon:
# stopping the daemon alone would leave it running, so the stop line names both.
bus_pid=$started_bus
if [ -z "$bus_pid" ] && [ -n "$private_bus" ] && [ "$(remembered bus)" = "$private_bus" ]; then
    bus_pid=$(remembered bus_pid)
    [[ $bus_pid =~ ^[0-9]+$ ]] && [ "$(cat "/proc/$bus_pid/comm" 2>/dev/null)" = dbus-daemon ] || bus_pid=""
fi
# kill DAEMON [BUS], as the user types it.
stop_line() {
    if [ -n "$bus_pid" ]; then
        echo "Stop it and its private bus with: kill $1 $bus_pid"
    else
        echo "Stop it with: kill $1"
    fi
}

if owned; then
    dpid=$(owner_pid)
    echo "petprogressd is already running (pid ${dpid:-?}); make run reuses it."
    if [ -n "$dpid" ] && grep -q 'petprogress\.service' "/proc/$dpid/cgroup" 2>/dev/null; then
        echo "Stop it with: systemctl --user stop petprogress"
    else
        stop_line "${dpid:-…}"
    fi
else
    nohup "$daemon" >>"$log" 2>&1 &
    dpid=$!
    for _ in $(seq 1 100); do owned && break; kill -0 "$dpid" 2>/dev/null || break; sleep 0.05; done
    if ! owned; then
        kill "$dpid" 2>/dev/null || true
        # Nothing is left behind: the bus this run started goes too.
        if [ -n "$started_bus" ]; then kill "$started_bus" 2>/dev/null || true; rm -f "$state_file"; fi
        echo "petprogressd did not start; its log ($(tilde "$log")) says:" >&2
        tail -n 5 "$log" >&2
        exit 1
    fi
    echo "petprogressd is running (pid $dpid)."
    stop_line "$dpid"
    echo "Its log: $(tilde "$log")"
fi
if [ -n "$private_bus" ]; then
    printf 'bus %s\nbus_pid %s\ndaemon_pid %s\n' "$private_bus" "$bus_pid" "$dpid" >"$state_file"
fi

# The one line a new shell needs: the private bus, and petctl on PATH unless it is already there.
{
    echo "# Written by make run: . this file in a shell to reach petprogressd with petctl."
    [ -z "$private_bus" ] || printf 'export DBUS_SESSION_BUS_ADDRESS=%q\n' "$private_bus"
    printf 'export PATH=%q:"$PATH"\n' "$(dirname "$petctl")"
} >"$env_file"
chmod 0600 "$env_file"

echo
"$petctl" today
echo
if [ "$(command -v petctl 2>/dev/null || true)" = "$petctl" ] && [ -z "$private_bus" ]; then
    echo "Next, try:"
else
    # make run is a child of this shell: this shell needs the line as much as a new one.
    echo "First, in this shell and in each new one (the bus and petctl on PATH):"
    echo "  . $(tilde "$env_file")"
    echo "Next, try:"
fi
next=("petctl add 18:00 'Water the plants'" "petctl done" "petctl add 07:30 Stretch --repeat weekdays")
why=("a task at 18:00" "mark the next task done" "every weekday")
width=0
for line in "${next[@]}"; do [ ${#line} -gt "$width" ] && width=${#line}; done
for i in "${!next[@]}"; do printf '  %-*s  # %s\n' "$width" "${next[$i]}" "${why[$i]}"; done
