#!/usr/bin/env bash
# Debian roots for the checks that need another Debian: the desktops (GNOME Shell 48, Plasma 6, from
# Debian 13) and the pristine roots the package check installs into. As root.
#
#   scripts/debian-root.sh ensure NAME   build, or restore from the cache; prints the root's path
#   scripts/debian-root.sh mount NAME    proc, sys, dev, dev/pts, dev/shm, fresh tmpfs on /run and /tmp
#   scripts/debian-root.sh stop NAME     stop every process whose root is NAME's root, unmount all
#
# scripts/roots/NAME.list names the suite on its first line, then one package per line (none: the
# bare `debootstrap --variant=minbase`). The cache lives outside the repository, in
# ${PETPROGRESS_ROOTS:-/var/cache/petprogress/roots}: NAME-KEY.tar.zst, KEY a hash of the list and
# of build_root below, so changing either builds anew. `ensure` gives a fresh copy every time (a
# check never sees a previous run's leftovers) in NAME/ beside the tarball.
# PETPROGRESS_ROOT_COPY=WORD: the copy is NAME.WORD/ instead (same tarball), for a check that may run
# beside the ones using NAME/ (make check-debian's GNOME step beside make test's desktops): an ensure
# or stop of one copy never touches the processes and mounts of another.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cache=${PETPROGRESS_ROOTS:-/var/cache/petprogress/roots}

usage() { echo "usage: $0 ensure|mount|stop NAME  (NAME: $(cd "$here/roots" && ls *.list | sed 's/\.list$//' | tr '\n' ' '))" >&2; exit 64; }
[ $# -eq 2 ] || usage
cmd=$1 name=$2
list=$here/roots/$name.list
[[ $name =~ ^[a-z0-9][a-z0-9-]*$ && -f $list ]] || usage
[ "$(id -u)" -eq 0 ] || { echo "$0: needs root (debootstrap, chroot, mount)" >&2; exit 1; }
copy=${PETPROGRESS_ROOT_COPY:-}
[[ -z $copy || $copy =~ ^[a-z0-9]+$ ]] || { echo "$0: PETPROGRESS_ROOT_COPY is one lower-case word" >&2; exit 64; }
root=$cache/$name${copy:+.$copy}
say() { echo "debian-root: $name: $*" >&2; }

# The one Debian mirror apt already uses on this machine.
mirror() {
    local m
    m=$(grep -hoE '(URIs:|^deb)[[:space:]]+(\[[^]]*\][[:space:]]+)?https?://[^[:space:]]+/debian/?([[:space:]]|$)' \
        /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null \
        | grep -oE 'https?://[^[:space:]]+' | head -1 || true)
    echo "${m:-http://deb.debian.org/debian}"
}

# Everything that makes a root from its list; its text is part of the cache key.
build_root() {
    local dir=$1 suite=$2
    shift 2
    debootstrap --variant=minbase "$suite" "$dir" "$(mirror)" > "$dir.log" 2>&1 || { tail -20 "$dir.log" >&2; return 1; }
    [ $# -gt 0 ] || return 0
    # A desktop root: its packages, no services started while installing, a user (uid 1000) to run as.
    printf '#!/bin/sh\nexit 101\n' > "$dir/usr/sbin/policy-rc.d"
    chmod +x "$dir/usr/sbin/policy-rc.d"
    mount -t proc proc "$dir/proc"
    local rc=0
    { chroot "$dir" apt-get update -qq \
        && DEBIAN_FRONTEND=noninteractive chroot "$dir" apt-get install -y -q --no-install-recommends "$@" \
        && chroot "$dir" apt-get clean; } >> "$dir.log" 2>&1 || rc=$?
    umount "$dir/proc"
    [ $rc -eq 0 ] || { tail -20 "$dir.log" >&2; return $rc; }
    rm -rf "$dir"/var/lib/apt/lists/*
    chroot "$dir" useradd -m -s /bin/bash -u 1000 tester
}

# Mount points under the root, deepest first (mountinfo escapes spaces and the like as \ooo).
mounts_under() {
    local mp
    while read -r _ _ _ _ mp _; do
        mp=$(printf '%b' "$mp")
        if [[ $mp == "$root" || $mp == "$root"/* ]]; then echo "$mp"; fi
    done < /proc/self/mountinfo | awk '{ print length, $0 }' | sort -rn | cut -d' ' -f2-
}

# Processes whose root directory is the root: only what was started inside it.
procs_in_root() {
    find /proc -mindepth 2 -maxdepth 2 -name root -lname "$root" 2> /dev/null | cut -d/ -f3 || true
}

do_stop() {
    local sig pids i
    for sig in TERM KILL; do
        pids=$(procs_in_root)
        [ -n "$pids" ] || break
        # shellcheck disable=SC2086
        kill -s $sig $pids 2>/dev/null || true
        for i in $(seq 1 30); do [ -z "$(procs_in_root)" ] && break; sleep 0.1; done
    done
    [ -z "$(procs_in_root)" ] || say "processes still running: $(procs_in_root | tr '\n' ' ')"
    local mp
    mounts_under | while IFS= read -r mp; do
        umount "$mp" 2>/dev/null || umount -l "$mp"
    done
    [ -z "$(mounts_under)" ] || { say "still mounted: $(mounts_under | tr '\n' ' ')"; return 1; }
}

do_mount() {
    [ -d "$root/proc" ] || { say "no root at $root: run ensure first"; return 1; }
    mountpoint -q "$root/proc" || mount -t proc proc "$root/proc"
    mountpoint -q "$root/sys" || { mount --rbind /sys "$root/sys" && mount --make-rslave "$root/sys"; }
    mountpoint -q "$root/dev" || mount --bind /dev "$root/dev"
    mountpoint -q "$root/dev/pts" || mount --bind /dev/pts "$root/dev/pts"
    mountpoint -q "$root/dev/shm" || mount --bind /dev/shm "$root/dev/shm"
    mountpoint -q "$root/run" || mount -t tmpfs -o mode=755 tmpfs "$root/run"
    mountpoint -q "$root/tmp" || mount -t tmpfs -o mode=1777 tmpfs "$root/tmp"
}

do_ensure() {
    # Only the root's path goes to stdout (callers capture it). The tools come from the set-up step
    # (`scripts/deps.sh test`, which make test runs first), never from here in the middle of a check.
    local tool
    for tool in debootstrap zstd; do
        command -v "$tool" > /dev/null || { say "$tool is missing: run scripts/deps.sh test (make test does)"; return 1; }
    done
    mkdir -p "$cache"
    exec 9> "$cache/$name.lock"
    flock 9
    local suite packages key tarball t0=$SECONDS
    suite=$(head -1 "$list")
    packages=$(tail -n +2 "$list" | grep -v '^[[:space:]]*$' || true)
    key=$( { cat "$list"; declare -f build_root; } | sha256sum | cut -c1-16)
    tarball=$cache/$name-$key.tar.zst
    do_stop
    [ ! -e "$root" ] || rm -rf --one-file-system "$root"
    if [ ! -f "$tarball" ]; then
        say "building ($suite, $(echo "$packages" | grep -c . || true) packages) from $(mirror)"
        local build=$cache/$name.build
        rm -rf --one-file-system "$build"
        # shellcheck disable=SC2086
        build_root "$build" "$suite" $packages
        tar -C "$build" --numeric-owner -I 'zstd -T0 -3' -cf "$tarball.part" .
        mv "$tarball.part" "$tarball"
        find "$cache" -maxdepth 1 -name "$name-*.tar.zst" ! -name "$(basename "$tarball")" -delete
        rm -f "$build.log"
        mv "$build" "$root"
        say "built and cached in $((SECONDS - t0)) s: $(du -h "$tarball" | cut -f1)"
    else
        mkdir -p "$root"
        tar -C "$root" --numeric-owner -I zstd -xf "$tarball"
        say "restored in $((SECONDS - t0)) s"
    fi
    echo "$root"
}

case $cmd in
ensure) do_ensure ;;
mount) do_mount ;;
stop) do_stop ;;
*) usage ;;
esac
