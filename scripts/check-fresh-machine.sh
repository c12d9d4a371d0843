#!/usr/bin/env bash
# make check-fresh: the README's commands on a machine that never saw the project, as root.
#
# The machine: a pristine Debian 12 root (scripts/debian-root.sh, list roots/fresh-bookworm.list:
# `debootstrap --variant=minbase` plus the packages swift.org's Debian 12 instructions install
# beside the toolchain, nothing else), the Swift toolchain bound in read-only at the path it has
# here, a user (uid 1000, `tester`) with empty caches, and a clone of HEAD (commit it first: what is
# not committed is not checked). This machine reaches GitHub through a local mirror of the Swift
# packages (git's `url.<mirror>.insteadOf` in the system configuration): the same lines and the
# mirror, read-only, stand in for the network inside the root.
#
# The commands, as the README tells them, in order:
#   1. `sudo apt-get install make`             (make is not in Debian's minimal system nor swift.org's list)
#   2. `make run` as the user; when it stops at "deps: missing packages; run: sudo apt-get install …",
#      that line is run as root (the user's sudo) and `make run` again. The Today screen must show.
#   3. `make test` as root in a clone of its own, the way CI runs it (.ci/run): it builds its own
#      Debian roots inside this one (debootstrap within the chroot, their cache in the root's
#      /var/cache/petprogress) and must end with "make test: all test targets passed".
#
#   scripts/check-fresh-machine.sh [--run-only]      (--run-only: steps 1 and 2)
# The transcript of every step is kept in ${CHECK_FRESH_LOG:-.build/check-fresh} (one file a step);
# the summary goes to stdout. The root is rebuilt from its cached tarball at every run (caches
# empty), and stopped and unmounted at exit.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
here=$repo/scripts
name=fresh-bookworm
run_only=false
[ "${1:-}" != --run-only ] || run_only=true
[ "$(id -u)" -eq 0 ] || { echo "check-fresh: needs root (a Debian root, chroot, mounts)" >&2; exit 1; }
logs=${CHECK_FRESH_LOG:-$repo/.build/check-fresh}
# Bounds on each command: a hang fails the check instead of stalling it.
run_limit=${CHECK_FRESH_RUN_LIMIT:-3600}
test_limit=${CHECK_FRESH_TEST_LIMIT:-10800}

# The toolchain: the directory above the `swift` on PATH's usr/bin (/opt/swift here).
swift_bin=$(command -v swift) || { echo "check-fresh: no swift on PATH" >&2; exit 1; }
toolchain=$(cd "$(dirname "$(realpath "$swift_bin")")/../.." && pwd)
[ -x "$toolchain/usr/bin/swift" ] || { echo "check-fresh: $toolchain/usr/bin/swift is not the toolchain" >&2; exit 1; }
commit=$(git -C "$repo" rev-parse HEAD)
git -C "$repo" diff --quiet HEAD || echo "check-fresh: uncommitted changes are not checked (HEAD is $commit)" >&2

mkdir -p "$logs"
rm -f "$logs"/*.log
t_start=$SECONDS
say() { echo "check-fresh: $*"; }
failed=()

root=$(bash "$here/debian-root.sh" ensure "$name")
[[ $root == /* && -d $root ]] || { echo "check-fresh: ensure $name gave no root directory: $root" >&2; exit 1; }
# What `make run` left running for the user (its daemon and private bus, named in the user's
# make-run.state): stopped by PID, each only while it is still the user's process of that name.
stop_make_run() {
    local state=$root/home/tester/.cache/petprogress/make-run.state key pid comm
    [ -f "$state" ] || return 0
    for key in daemon_pid:petprogressd bus_pid:dbus-daemon; do
        pid=$(awk -v k="${key%%:*}" '$1 == k { print $2 }' "$state")
        [[ $pid =~ ^[0-9]+$ ]] || continue
        comm=$(cat "/proc/$pid/comm" 2>/dev/null) || continue
        [ "$comm" = "${key#*:}" ] && [ "$(stat -c %u "/proc/$pid")" = 1000 ] && kill "$pid" 2>/dev/null || true
    done
}
stop_root() {
    stop_make_run
    bash "$here/debian-root.sh" stop "$name" >&2 || true
}
trap stop_root EXIT
bash "$here/debian-root.sh" mount "$name"
say "a pristine Debian 12 root with swift.org's packages ($(tail -n +2 "$here/roots/$name.list" | tr '\n' ' '))"

# The toolchain, read-only, where it is here.
mkdir -p "$root$toolchain"
mount --bind "$toolchain" "$root$toolchain"
mount -o remount,bind,ro "$root$toolchain"
# The package mirror and the lines that send GitHub's URLs to it: only `url.*` settings are copied.
git config --system --get-regexp '^url\..*\.insteadof$' 2>/dev/null | while read -r key value; do
    mirror=${key#url.}
    mirror=${mirror%.insteadof}
    [[ $mirror == /* && -d $mirror ]] || continue
    if ! mountpoint -q "$root${mirror%/}"; then
        mkdir -p "$root${mirror%/}"
        mount --bind "${mirror%/}" "$root${mirror%/}"
        mount -o remount,bind,ro "$root${mirror%/}"
    fi
    chroot "$root" git config --system --add "url.$mirror.insteadOf" "$value"
done
# The mirror is root's here, and git refuses a repository another user owns ("dubious ownership"):
# a stand-in detail the network would not have, so the stand-in says the mirror is safe.
if chroot "$root" git config --system --get-regexp '^url\.' > /dev/null; then
    chroot "$root" git config --system --add safe.directory '*'
fi
say "toolchain $toolchain ($("$toolchain/usr/bin/swift" --version 2>/dev/null | head -1)), bound read-only"

# The user's shell: a login environment with only what swift.org says to add (the toolchain on PATH).
user_path=$toolchain/usr/bin:/usr/local/bin:/usr/bin:/bin
root_path=$toolchain/usr/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
# Into the machine: the root made the whole file system of a mount namespace of its own
# (pivot_root), then `chroot /` only to take the user. Not a plain chroot: the kernel refuses a user
# namespace to a chrooted process (unshare: Operation not permitted), which a real machine allows
# and one test (LocalZoneTests, inotify refused at start) makes.
enter=(unshare --mount --propagation private -- /bin/sh -c '
    mount --rbind "$0" "$0" && cd "$0" && mkdir -p .old-root && pivot_root . .old-root && umount -l /.old-root || exit 125
    exec chroot "$@"' "$root")
as_user() {
    local limit=$1
    timeout --kill-after=30 "$limit" "${enter[@]}" --userspec=1000:1000 / /usr/bin/env -i HOME=/home/tester \
        USER=tester LOGNAME=tester SHELL=/bin/bash PATH="$user_path" LANG=C.UTF-8 TERM=dumb /bin/bash -c "$2" < /dev/null
}
as_root() {
    local limit=$1
    timeout --kill-after=30 "$limit" "${enter[@]}" / /usr/bin/env -i HOME=/root USER=root LOGNAME=root SHELL=/bin/bash \
        PATH="$root_path" LANG=C.UTF-8 TERM=dumb CI=true /bin/bash -c "$2" < /dev/null
}
# Runs a step's command as WHO (as_user, as_root) within LIMIT seconds, its transcript appended to
# $logs/LABEL.log; prints how it went.
step() {
    local label=$1 limit=$2 who=$3 cmd=$4 t0=$SECONDS rc=0
    echo "### $cmd ($who)" >> "$logs/$label.log"
    "$who" "$limit" "$cmd" >> "$logs/$label.log" 2>&1 || rc=$?
    say "$label: $cmd ($who) exited $rc after $((SECONDS - t0)) s"
    return $rc
}

# 0. A clone of HEAD for the user (and one for root's `make test`, as CI clones its own).
rm -rf "$root/home/tester/petprogress" "$root/root/petprogress"
git clone -q --no-checkout "$repo" "$root/home/tester/petprogress"
git -C "$root/home/tester/petprogress" checkout -q "$commit"
chown -R 1000:1000 "$root/home/tester/petprogress"
say "cloned $commit; the user's caches: $(find "$root/home/tester" -mindepth 1 -maxdepth 1 ! -name petprogress ! -name '.bash*' ! -name .profile | wc -l) entries beside the clone"

# 1. make, the one thing the README asks for before its commands.
if as_user 60 'command -v make' > /dev/null; then
    say "make is already there: the root is not pristine"
    failed+=(pristine)
fi
step make 900 as_root 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq make' || failed+=(make)

# 2. make run, as the user; the sudo line it prints, run as root; make run again.
# (Each round runs the line make run printed last; a README that needs more than one is a finding.)
rounds=0
until step make-run "$run_limit" as_user 'cd ~/petprogress && make run'; do
    # The line the last attempt printed (the transcript holds every attempt, each after a ### line).
    line=$(awk '/^### /{n=NR} {l[NR]=$0} END{for(i=n;i<=NR;i++) print l[i]}' "$logs/make-run.log" |
        grep -o 'run: sudo apt-get install .*' | tail -1 | sed 's/^run: sudo //' || true)
    if [ $rounds -ge 2 ] || ! [[ $line =~ ^apt-get\ install\ -y(\ [a-z0-9][a-z0-9.+-]*)+$ ]]; then
        failed+=(make-run)
        break
    fi
    rounds=$((rounds + 1))
    say "make run asked for: sudo $line"
    step make-run-deps 1800 as_root "DEBIAN_FRONTEND=noninteractive $line" || { failed+=(make-run-deps); break; }
done
[ $rounds -le 1 ] || { say "make run asked for packages $rounds times: the README promises one line"; failed+=(make-run-rounds); }
grep -q 'Next, try:' "$logs/make-run.log" && grep -q 'stage 1 of 20' "$logs/make-run.log" \
    || { say "make run did not show the Today screen and its next steps"; failed+=(make-run-screen); }
tail -n 25 "$logs/make-run.log" | sed 's/^/  | /'
stop_make_run

# 3. make test, as CI runs it: as root, in a clone of its own.
if ! $run_only; then
    git clone -q --no-checkout "$repo" "$root/root/petprogress"
    git -C "$root/root/petprogress" checkout -q "$commit"
    step make-test "$test_limit" as_root 'cd ~/petprogress && make test' || failed+=(make-test)
    { grep -E '^(== |make test: )' "$logs/make-test.log" || true; } | tail -n 40 | sed 's/^/  | /'
    grep -q '^make test: all test targets passed' "$logs/make-test.log" || failed+=(make-test-summary)
fi

minutes=$(((SECONDS - t_start) / 60))
if [ ${#failed[@]} -gt 0 ]; then
    say "FAILED (${failed[*]}) after $minutes min; transcripts in $logs"
    exit 1
fi
say "passed in $minutes min: the README's commands on a fresh Debian 12 with the toolchain; transcripts in $logs"
