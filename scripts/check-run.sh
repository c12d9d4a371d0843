#!/usr/bin/env bash
# make run without a session bus: it starts a private one, and each "Next, try" line it prints must
# work pasted alone into another shell (another directory, no DBUS_SESSION_BUS_ADDRESS).
set -euo pipefail
bin=${1:?usage: check-run.sh BUILD_DIR}
work=$(mktemp -d)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT
mkdir -m 0700 "$work/run"
env -u DBUS_SESSION_BUS_ADDRESS XDG_RUNTIME_DIR="$work/run" HOME="$work" XDG_DATA_HOME="$work/data" \
    XDG_CONFIG_HOME="$work/config" bash scripts/run.sh "$bin/petprogressd" "$bin/petctl" >"$work/out" 2>&1
# The bus's and the daemon's pids, as run.sh reports them, are ours to stop.
mapfile -t pids < <(grep -o '(pid [0-9]*' "$work/out" | grep -o '[0-9]*')
[ "${#pids[@]}" = 2 ] || { cat "$work/out"; echo "check-run: expected a private bus and a daemon"; exit 1; }
status=0
while IFS= read -r line; do
    command=${line%%  #*}
    if ! (cd / && env -u DBUS_SESSION_BUS_ADDRESS HOME="$work" bash -c "$command") >>"$work/pasted" 2>&1; then
        echo "check-run: pasted alone, this failed: $command"
        status=1
    fi
done < <(sed -n '/^Next, try:$/,$p' "$work/out" | tail -n +2 | sed 's/^  //')
[ "$status" = 0 ] && grep -q 'Added' "$work/pasted" && echo "check-run: every Next line works pasted into another shell"
exit "$status"
