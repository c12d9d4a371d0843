# Sourced, not run: the set-up the desktop checks share (check-gnome-shell.sh,
# check-gnome-appindicator.sh, check-plasma.sh), each of which runs a desktop inside a Debian root
# from scripts/debian-root.sh with the build's own binaries. The caller sets `here` (scripts/),
# `bin` (the build's directory, holding petprogressd) and `out` (where logs and screenshots go),
# then calls enter_root NAME; it sets `root`.
# shellcheck shell=bash disable=SC2154 # here, bin and out are the caller's

# A fresh copy of the root NAME, mounted, stopped again at exit (see leave_root), an empty OUT,
# and the build's binaries read-only on /opt/pet with the Swift runtime a debug build loads from
# the toolchain (its RUNPATH) at the same path inside, so that /opt/pet's programs run there.
enter_root() {
    local runtime
    root_name=$1
    root=$(bash "$here/debian-root.sh" ensure "$root_name")
    # A path, never a helper's chatter: debian-root.sh prints only the root on stdout.
    [[ $root == /* && -d $root ]] || { echo "desktop-root: ensure $root_name gave no root directory: $root" >&2; return 1; }
    trap leave_root EXIT
    bash "$here/debian-root.sh" mount "$root_name"
    rm -rf "$out"
    mkdir -p "$out"
    mkdir -p "$root/opt/pet"
    mount --bind -o ro "$bin" "$root/opt/pet"
    runtime=$(ldd "$bin/petprogressd" | awk '/libswiftCore\.so/ { print $3 }')
    if [ -n "$runtime" ]; then
        runtime=$(dirname "$runtime")
        mkdir -p "$root$runtime"
        mount --bind -o ro "$runtime" "$root$runtime"
    fi
}

# At exit: the root's logs (its /tmp is a tmpfs that stopping unmounts) copied into OUT, every
# process in the root stopped and everything under it unmounted (a failure to do so fails the
# check), and, when the check failed, the end of GNOME Shell's log where there is one.
leave_root() {
    local rc=$?
    cp "$root"/tmp/*.log "$out/" 2> /dev/null || true
    bash "$here/debian-root.sh" stop "$root_name" || rc=1
    if [ $rc -ne 0 ] && [ -f "$out/shell.log" ]; then
        echo "--- the Shell's log (last 30 lines)"
        tail -n 30 "$out/shell.log" 2> /dev/null || true
    fi
    exit $rc
}
