#!/usr/bin/env bash
# The package and the tarball on machines that never saw the project: pristine Debian 12 and 13
# roots (scripts/debian-root.sh: debootstrap --variant=minbase, nothing else), as root.
#   check-package-roots.sh PACKAGE.deb TARBALL.tar.gz
# In each root: `apt-get install ./PACKAGE.deb` pulls what it needs and no Swift; a session bus
# started there (as a user) activates the installed daemon through the installed activation file
# when the installed `petctl add` runs; `petctl today` shows the task; `apt-get remove` leaves the
# user's data untouched; `apt-get purge` leaves no file of the package. petctl speaks German there
# under LANG=de_DE.UTF-8, from the catalogue installed beside it. In the Debian 13 root the
# tarball's install.sh then installs per user and system-wide, runs, and uninstalls.
# apt's lists and downloaded packages are kept outside the repository between runs
# (${PETPROGRESS_APT_CACHE:-/var/cache/petprogress/apt}/NAME), so a second run downloads nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
deb=$(realpath "${1:?usage: check-package-roots.sh PACKAGE.deb TARBALL.tar.gz}")
tarball=$(realpath "${2:?usage: check-package-roots.sh PACKAGE.deb TARBALL.tar.gz}")
apt_cache=${PETPROGRESS_APT_CACHE:-/var/cache/petprogress/apt}
failures=0
checks=0
fail() {
    echo "FAIL ($name): $*" >&2
    failures=$((failures + 1))
}
check() {
    checks=$((checks + 1))
    "$@" || fail "${message:-$*}"
}
name=
stop_root() { [ -z "$name" ] || bash scripts/debian-root.sh stop "$name" >/dev/null 2>&1 || true; }
trap stop_root EXIT

as_root() { chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive "$@"; }
# As the user, in the session the test starts: HOME, XDG_RUNTIME_DIR and, once started, the bus.
session=()
as_user() {
    chroot --userspec=1000:1000 "$root" env -i PATH=/usr/local/bin:/usr/bin:/bin HOME=/home/pet \
        XDG_RUNTIME_DIR=/run/user/1000 TZ=Etc/UTC "${session[@]}" "$@"
}
# The daemon: the process in the root that owns the name.
daemon_pid() {
    as_user dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
        org.freedesktop.DBus.GetConnectionUnixProcessID string:io.petprogress.PetProgress1 2>/dev/null |
        awk '/uint32/ {print $2}'
}
start_bus() {
    local out
    out=$(as_user dbus-daemon --session --fork --print-address=1 --print-pid=1)
    session=(DBUS_SESSION_BUS_ADDRESS="$(sed -n 1p <<<"$out")")
}
# Runs the installed petctl at PATH: add a task (activating the daemon), then today shows it, and
# the daemon is the installed binary EXE.
petctl_round() {
    local petctl=$1 exe=$2 out pid
    out=$(as_user "$petctl" add 23:59 "Water the plants" 2>&1) || fail "$petctl add: $out"
    pid=$(daemon_pid)
    message="no daemon owns the name after $petctl add" check test -n "$pid"
    message="the activated daemon is $(readlink "/proc/$pid/exe"), not the installed $exe" \
        check test "$(readlink "/proc/$pid/exe")" = "$root$exe"
    out=$(as_user "$petctl" today --plain 2>&1) || fail "$petctl today: $out"
    message="$petctl today does not show the task: $out" check grep -q "Water the plants" <<<"$out"
    [ -z "$pid" ] || { kill "$pid"; while kill -0 "$pid" 2>/dev/null; do sleep 0.05; done; }
}
# Every file under the root whose path names petprogress, but the user's data (and what petctl
# remembers of what it showed them, under XDG_STATE_HOME).
leftovers() {
    (cd "$root" && find . -xdev \( -path ./proc -o -path ./sys -o -path ./dev -o -path ./home/pet/.local/share/petprogress \
        -o -path ./home/pet/.local/state/petprogress \) \
        -prune -o -iname '*petprogress*' -print)
}
# petctl at PATH speaks German under LANG=de_DE.UTF-8 (its catalogue in ../share/locale): its
# --help differs from C's and names the pet (das Haustier). The root gets the locale from its own localedef and this machine's sources
# (package locales): a pristine root has none but C.UTF-8, where Debian 13's glibc ignores LANGUAGE.
petctl_german() {
    local petctl=$1 dir
    if ! chroot "$root" locale -a | grep -qx de_DE.utf8; then
        dir=$(mktemp -d "$root/tmp/i18n.XXXXXX")
        cp -r /usr/share/i18n/locales /usr/share/i18n/charmaps "$dir/"
        as_root env I18NPATH="/tmp/${dir##*/}" localedef --no-archive -i de_DE -f UTF-8 de_DE.UTF-8 ||
            fail "localedef de_DE.UTF-8"
        rm -rf "$dir"
    fi
    local german
    german=$(as_user env LANG=de_DE.UTF-8 "$petctl" --help 2>&1)
    message="$petctl --help under LANG=de_DE.UTF-8 is not German: $(head -1 <<<"$german")" check \
        bash -c '[ "$1" != "$2" ] && grep -q Haustier <<<"$1"' _ "$german" "$(as_user "$petctl" --help 2>&1)"
}
data_sums() { (cd "$root/home/pet/.local/share/petprogress" && find . -type f -print0 | sort -z | xargs -0 sha256sum); }

for name in bookworm trixie; do
    t0=$SECONDS
    echo "-- $name: the package in a pristine root"
    root=$(bash scripts/debian-root.sh ensure "$name")
    [[ $root == /* && -d $root ]] || { echo "check-package-roots: ensure $name gave no root directory: $root" >&2; exit 1; }
    bash scripts/debian-root.sh mount "$name"
    # apt's lists and the downloaded packages, kept between runs; a stale list is refreshed.
    mkdir -p "$apt_cache/$name/lists/partial" "$apt_cache/$name/archives/partial"
    mount --bind "$apt_cache/$name/archives" "$root/var/cache/apt/archives"
    cp -a "$apt_cache/$name/lists/." "$root/var/lib/apt/lists/"
    cp "$deb" "$root/tmp/"
    before=$(as_root dpkg-query -W -f '${Package}\n' | sort)
    if ! as_root apt-get install -y -q "/tmp/$(basename "$deb")" >"$root/tmp/apt.log" 2>&1; then
        as_root apt-get update -q >>"$root/tmp/apt.log" 2>&1 || true
        as_root apt-get install -y -q "/tmp/$(basename "$deb")" >>"$root/tmp/apt.log" 2>&1 ||
            { tail -20 "$root/tmp/apt.log" >&2; fail "apt-get install ./$(basename "$deb")"; bash scripts/debian-root.sh stop "$name"; continue; }
        rm -rf "$apt_cache/$name/lists"
        cp -a "$root/var/lib/apt/lists" "$apt_cache/$name/lists"
    fi
    rm -f "$root/tmp/$(basename "$deb")"
    added=$(comm -13 <(echo "$before") <(as_root dpkg-query -W -f '${Package}\n' | sort))
    echo "   installed $(wc -l <<<"$added") packages: $(tr '\n' ' ' <<<"$added")"
    message="Swift came along: $(grep -i swift <<<"$added" | tr '\n' ' ')" check bash -c "! grep -qi swift <<<'$added'"
    message="a Swift runtime library is in the root" check test -z "$(find "$root/usr" -name 'libswift*' | head -1)"
    for want in petprogress libdbus-1-3 dbus-user-session; do
        message="$want was not installed" check grep -qx "$want" <<<"$added"
    done
    for bin in petprogressd petctl; do
        message="/usr/bin/$bin lacks a library: $(as_root ldd "/usr/bin/$bin" | grep 'not found' | tr '\n' ' ')" \
            check bash -c "! chroot '$root' ldd /usr/bin/$bin | grep -q 'not found'"
    done

    as_root useradd -m -u 1000 pet
    install -d -m 0700 -o 1000 -g 1000 "$root/run/user/1000"
    start_bus
    petctl_round /usr/bin/petctl /usr/bin/petprogressd
    petctl_german /usr/bin/petctl
    sums=$(data_sums)
    message="the daemon kept no state" check test -n "$sums"

    as_root apt-get remove -y -q petprogress >"$root/tmp/apt.log" 2>&1 || fail "apt-get remove: $(tail -3 "$root/tmp/apt.log")"
    message="apt-get remove changed the user's data" check test "$(data_sums)" = "$sums"
    message="apt-get remove left /usr/bin/petprogressd" check test ! -e "$root/usr/bin/petprogressd"
    as_root apt-get purge -y -q petprogress >"$root/tmp/apt.log" 2>&1 || fail "apt-get purge: $(tail -3 "$root/tmp/apt.log")"
    message="apt-get purge left: $(leftovers | head -5 | tr '\n' ' ')" check test -z "$(leftovers)"
    message="apt-get purge touched the user's data" check test "$(data_sums)" = "$sums"
    message="dpkg still knows petprogress" check bash -c "! chroot '$root' dpkg-query -W petprogress >/dev/null 2>&1"

    if [ "$name" = trixie ]; then
        echo "-- $name: the tarball, per user and system-wide"
        dir=$(basename "$tarball" .tar.gz)
        tar -C "$root/tmp" -xzf "$tarball"
        chown -R 1000:1000 "$root/tmp/$dir"
        as_user "/tmp/$dir/install.sh" install PREFIX=/home/pet/.local >"$root/tmp/install.log" 2>&1 ||
            fail "per-user install.sh install: $(tail -3 "$root/tmp/install.log")"
        petctl_round /home/pet/.local/bin/petctl /home/pet/.local/bin/petprogressd
        petctl_german /home/pet/.local/bin/petctl
        as_user "/tmp/$dir/install.sh" uninstall PREFIX=/home/pet/.local >"$root/tmp/install.log" 2>&1 ||
            fail "per-user install.sh uninstall: $(tail -3 "$root/tmp/install.log")"
        message="the per-user uninstall left: $(leftovers | grep -v "^./tmp/$dir" | head -5 | tr '\n' ' ')" \
            check test -z "$(leftovers | grep -v "^./tmp/$dir")"
        as_root "/tmp/$dir/install.sh" install >"$root/tmp/install.log" 2>&1 ||
            fail "system install.sh install: $(tail -3 "$root/tmp/install.log")"
        # A bus reads the service directories that exist when it starts: a new login's bus.
        start_bus
        petctl_round /usr/local/bin/petctl /usr/local/bin/petprogressd
        as_root "/tmp/$dir/install.sh" uninstall >"$root/tmp/install.log" 2>&1 ||
            fail "system install.sh uninstall: $(tail -3 "$root/tmp/install.log")"
        message="the system uninstall left: $(leftovers | grep -v "^./tmp/$dir" | head -5 | tr '\n' ' ')" \
            check test -z "$(leftovers | grep -v "^./tmp/$dir")"
    fi
    bash scripts/debian-root.sh stop "$name" >/dev/null
    echo "   $name: $((SECONDS - t0)) s"
done
name=
echo "package roots: $((checks - failures)) passed, $failures failed"
[ "$failures" -eq 0 ]
