#!/usr/bin/env bash
# Installs the Debian packages of the lists named, when they are missing, plus any packages named
# on the command line:
#   deps.sh [--no-install] [build] [run] [check] [test] [PACKAGE…]
# `make release`, `make deb`: build; `make install`: run (and build, only when the shipped build is
# missing); `make check`: build, run and check, with --no-install (it never runs apt-get: it names
# what is missing and fails); `make test`: build, run and test (test includes check), in its set-up
# step, so that no check installs anything midway; `make bench` adds playerctl, the anchor; time, for peak memory;
# gcc and pkg-config, for its C round-trip client bench/rtt/rtt.c (`bash scripts/deps.sh valgrind`
# for callgrind profiles). As root it runs apt-get; otherwise it prints the exact command and fails.
set -euo pipefail

# To build the shipped files (make release, make install, make deb, make dist).
#   libdbus-1-dev  CDBus               binutils  strip: make install strips both binaries
#   dpkg-dev       dpkg-shlibdeps: the package's Depends (make deb)
#   gettext        msgfmt: petctl's catalogues (po/, scripts/po.py)   python3  scripts/po.py
build=(libdbus-1-dev binutils dpkg-dev gettext python3)
# To run them (the package computes its own Depends from the binaries).
#   libdbus-1-3    libdbus             dbus-daemon  a session bus where none runs (make run)
#   tzdata         the zones the daemon reads
run=(libdbus-1-3 dbus-daemon tzdata)
# To run the everyday tests (make check: the swift test targets, the GNOME extension's gjs tests).
#   dbus-bin       dbus-send, dbus-monitor              libglib2.0-bin  gdbus, gio
#   systemd        busctl, systemd-analyze              util-linux      setpriv, unshare
#   strace         the AF_UNIX-only test                python3         scripts/po.py, zoneinfo
#   bsdutils       script(1): petctl on a pty           gjs             the GNOME Shell extension's tests
#   libc-bin       zdump and zic: the zone tests read the same tzdata as glibc
#   tmux           the Today screen in a real terminal at 80 and 40 columns (TodayTerminalTests)
#   locales        de_DE.UTF-8, fr_FR.UTF-8 and en_US.UTF-8 for the translation tests (generated below)
check=(dbus-bin libglib2.0-bin systemd util-linux strace python3 bsdutils gjs libc-bin tmux locales)
# To test everything (make test, make reliability): the above, and
#   groff-base     the man page check
#   librsvg2-bin   rsvg-convert: renders the pet art (scripts/render-pets.sh, scripts/check-pets.py)
#   python3-pil    Pillow: the pet art checks and contact sheet read the renders
#   desktop-file-utils  desktop-file-validate and update-desktop-database (the install test)
#   xdg-utils      xdg-mime and xdg-open: the per-user install's petprogress:// handler and its test
#   sway waybar grim  contrib/waybar's module run in a headless sway and clicked (check-panel-click.sh)
#   xfce4-panel xvfb  the tray in XFCE's panel under Xvfb (check-tray-xfce.sh)
#   lintian        the package's check (check-package.sh)
#   debootstrap zstd  the Debian roots of the desktop and package checks (debian-root.sh), cached as .tar.zst
#   appstream      appstreamcli: the AppStream metadata validated (check-metainfo.sh)
test=("${check[@]}" groff-base librsvg2-bin python3-pil desktop-file-utils xdg-utils sway waybar grim
    xfce4-panel xvfb lintian debootstrap zstd appstream)

pkgs=()
install=true
for arg in "$@"; do
    case $arg in
        --no-install) install=false ;;
        build) pkgs+=("${build[@]}") ;;
        run) pkgs+=("${run[@]}") ;;
        check) pkgs+=("${check[@]}") ;;
        test) pkgs+=("${test[@]}") ;;
        *) pkgs+=("$arg") ;;
    esac
done
# The locales the translation tests run under, compiled once (localedef, as root) when missing.
locales_missing() {
    for l in de_DE fr_FR en_US; do locale -a 2>/dev/null | grep -qx "$l.utf8" || echo "$l"; done
}
generate_locales() {
    for l in $(locales_missing); do
        if [ "$(id -u)" -eq 0 ] && $install; then
            localedef -i "$l" -f UTF-8 "$l.UTF-8"
        else
            echo "deps: missing locale $l.UTF-8; run: sudo localedef -i $l -f UTF-8 $l.UTF-8" >&2
            exit 1
        fi
    done
}
missing=()
for p in "${pkgs[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
want_locales=false
for arg in "$@"; do [ "$arg" = test ] || [ "$arg" = check ] && want_locales=true; done
if [ ${#missing[@]} -eq 0 ]; then
    if $want_locales; then generate_locales; fi
    exit 0
fi
if [ "$(id -u)" -eq 0 ] && $install; then
    # Status on stderr, always: callers capture stdout for paths (debian-root.sh ensure).
    echo "deps: installing ${missing[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
    echo "deps: missing packages; run: sudo apt-get install -y ${missing[*]}" >&2
    exit 1
fi
if $want_locales; then generate_locales; fi
