#!/usr/bin/env bash
# make run: start petprogressd on the session bus (or on a private bus when there is none) and show
# the Today screen. Leaves the daemon running in the background and says how to stop it.
set -euo pipefail
daemon=${1:?usage: run.sh PATH/TO/petprogressd PATH/TO/petctl}
petctl=${2:?usage: run.sh PATH/TO/petprogressd PATH/TO/petctl}
name=io.petprogress.PetProgress1
# The commands printed below must work pasted into any shell, in any directory.
petctl=$(realpath "$petctl")
prefix=""

bus_ok() {
    [ -n "${DBUS_SESSION_BUS_ADDRESS:-}" ] &&
        dbus-send --session --print-reply --dest=org.freedesktop.DBus / org.freedesktop.DBus.GetId >/dev/null 2>&1
}

if [ -z "${DBUS_SESSION_BUS_ADDRESS:-}" ] && [ -n "${XDG_RUNTIME_DIR:-}" ] && [ -S "$XDG_RUNTIME_DIR/bus" ]; then
    export DBUS_SESSION_BUS_ADDRESS="unix:path=$XDG_RUNTIME_DIR/bus"
fi
if ! bus_ok; then
    run_dir=${XDG_RUNTIME_DIR:-/tmp/petprogress-$(id -u)}
    mkdir -p -m 0700 "$run_dir"
    read -r addr pid < <(dbus-daemon --session --fork --nopidfile --print-address=1 --print-pid=1 | paste -sd' ')
    export DBUS_SESSION_BUS_ADDRESS="$addr"
    echo "No session bus was reachable, so a private one was started (pid $pid)."
    echo "To talk to it from another shell:  export DBUS_SESSION_BUS_ADDRESS='$addr'"
    prefix="DBUS_SESSION_BUS_ADDRESS='$addr' "
fi

owned() {
    dbus-send --session --print-reply --dest=org.freedesktop.DBus / org.freedesktop.DBus.NameHasOwner "string:$name" 2>/dev/null |
        grep -q 'boolean true'
}

if owned; then
    echo "petprogressd is already running on this bus."
else
    log=${XDG_RUNTIME_DIR:-/tmp}/petprogressd.log
    nohup "$daemon" >>"$log" 2>&1 &
    dpid=$!
    for _ in $(seq 1 100); do owned && break; kill -0 "$dpid" 2>/dev/null || break; sleep 0.05; done
    if ! owned; then
        echo "petprogressd did not start; its log ($log) says:" >&2
        tail -n 5 "$log" >&2
        exit 1
    fi
    echo "petprogressd is running (pid $dpid, log $log). Stop it with: kill $dpid"
fi

echo
"$petctl" today
echo
echo "Next, try:"
q=$(printf '%q' "$petctl")
next=("$prefix$q add 18:00 'Water the plants'" "$prefix$q done" "$prefix$q add 07:30 Stretch --repeat weekdays")
why=("a task for today at 18:00" "mark the next task done" "a task every weekday")
width=0
for line in "${next[@]}"; do [ ${#line} -gt "$width" ] && width=${#line}; done
for i in "${!next[@]}"; do printf '  %-*s  # %s\n' "$width" "${next[$i]}" "${why[$i]}"; done
