#!/usr/bin/env bash
# Proves time zones work in the build we ship (a build without full Foundation may know no zones at
# all): runs that binary on a private bus in zones with 30- and 45-minute offsets and DST — named,
# as a `:name`, as a path to a zone file, and as POSIX TZ rules — and checks each widget entry's
# `date` and `next_date` against Python's zoneinfo (the system tzdata) or, for a POSIX rule, glibc's
# localtime: both local tops of the hour, the latest one at or before the simulated now, and the
# next one after it. The daemon must log no time-zone problem.
set -euo pipefail
daemon=${1:?usage: check-shipped-zones.sh PATH/TO/petprogressd}
work=$(mktemp -d)
bus_pid=
daemon_pid=
cleanup() {
    [ -n "$daemon_pid" ] && kill "$daemon_pid" 2>/dev/null || true
    [ -n "$bus_pid" ] && kill "$bus_pid" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
dbus-daemon --session --fork --nopidfile --print-address=1 --print-pid=1 >"$work/bus"
export DBUS_SESSION_BUS_ADDRESS=$(sed -n 1p "$work/bus")
bus_pid=$(sed -n 2p "$work/bus")
name=io.petprogress.PetProgress1

checked=0
# zone, simulated now (a DST change is near each of these instants)
cp /usr/share/zoneinfo/Asia/Kathmandu "$work/kathmandu.tzif"
while read -r spec now; do
    zone=${spec//@WORK@/$work}
    TZ=$zone "$daemon" --data-dir "$work/$checked" --now "$now" 2>"$work/log" &
    daemon_pid=$!
    for _ in $(seq 1 200); do
        gdbus call --session --dest $name --object-path /io/petprogress/PetProgress1 \
            --method $name.GetWidgetEntry >"$work/entry" 2>/dev/null && break
        sleep 0.05
    done
    kill "$daemon_pid"; wait "$daemon_pid" || true; daemon_pid=
    if grep "time zone" "$work/log"; then
        echo "TZ=$zone: the daemon reports a zone problem" >&2
        exit 1
    fi
    date=$(grep -o "'date': <int64 [0-9]*>" "$work/entry" | grep -o '[0-9]*>' | tr -d '>')
    next=$(grep -o "'next_date': <int64 [0-9]*>" "$work/entry" | grep -o '[0-9]*>' | tr -d '>')
    python3 - "$zone" "$now" "$date" "$next" <<'PY'
import os, sys, time
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo
zone, now, date, nxt = sys.argv[1], datetime.fromisoformat(sys.argv[2].replace("Z", "+00:00")), int(sys.argv[3]), int(sys.argv[4])
name = zone.removeprefix(":")
if name.startswith("/"):
    z = ZoneInfo.from_file(open(name, "rb"))
elif os.path.isfile("/usr/share/zoneinfo/" + name):
    z = ZoneInfo(name)
else:
    z = None  # a POSIX TZ rule: glibc decides
    os.environ["TZ"] = zone
    time.tzset()
def is_tick(t):
    if z is None:
        local = time.localtime(t)
        return local.tm_min == 0 and local.tm_sec == 0
    local = datetime.fromtimestamp(t, timezone.utc).astimezone(z)
    return local.minute == 0 and local.second == 0
n = int(now.timestamp())
latest = next(t for t in range(n, n - 7200, -1) if is_tick(t))
following = next(t for t in range(n + 1, n + 7200) if is_tick(t))
assert (date, nxt) == (latest, following), f"{zone} at {sys.argv[2]}: daemon says ({date}, {nxt}), zoneinfo says ({latest}, {following})"
PY
    checked=$((checked + 1))
done <<'ZONES'
Asia/Kathmandu 2026-07-01T10:20:00Z
Australia/Lord_Howe 2026-10-03T15:10:00Z
Australia/Lord_Howe 2026-04-04T15:40:00Z
America/St_Johns 2026-11-01T04:10:00Z
Pacific/Chatham 2026-04-04T14:10:00Z
Europe/Berlin 2026-03-29T01:20:00Z
America/New_York 2026-11-01T06:20:00Z
Asia/Kolkata 2026-07-01T10:10:00Z
:Europe/Berlin 2026-10-25T00:20:00Z
/usr/share/zoneinfo/Australia/Lord_Howe 2026-10-03T15:40:00Z
@WORK@/kathmandu.tzif 2026-07-01T10:20:00Z
CET-1CEST,M3.5.0,M10.5.0/3 2026-03-29T01:20:00Z
<+0545>-5:45 2026-07-01T10:20:00Z
<+1030>-10:30<+11>-11,M10.1.0,M4.1.0 2026-10-03T15:40:00Z
<-02>2<-01>,M3.5.0/-1,M10.5.0/0 2026-03-29T01:20:00Z
EST5EDT4,J70/2,305/2 2026-11-02T06:20:00Z
ZONES
echo "shipped build time zones: $checked passed, 0 failed"
