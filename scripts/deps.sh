#!/usr/bin/env bash
# Installs the Debian packages the build and the tests need, when they are missing, plus any named
# on the command line (`make bench` adds playerctl, the anchor; time, for peak memory; gcc and
# pkg-config, for its C round-trip client bench/rtt/rtt.c; `bash scripts/deps.sh valgrind` for
# callgrind profiles). As root it runs apt-get; otherwise it prints the exact command and fails.
#   libdbus-1-dev  the build (CDBus)        dbus-daemon, dbus-bin  the bus, dbus-send, dbus-monitor
#   libglib2.0-bin gdbus                    systemd                busctl
#   tzdata         the zone sweep           util-linux             setpriv (PetStore's EACCES test)
#   strace         the AF_UNIX-only test    python3                zoneinfo (shipped build), extension zip
#   bsdutils       script(1): petctl on a pty                    groff-base  the man page check
#   librsvg2-bin   rsvg-convert: renders the pet art (scripts/render-pets.sh, scripts/check-pets.py)
#   python3-pil    Pillow: the pet art checks and contact sheet read the renders
#   gjs            the GNOME Shell extension's lint and its D-Bus client's tests
#   desktop-file-utils  desktop-file-validate and update-desktop-database (the install test)
#   binutils       nm and strip: the lean-binary check; make install strips both binaries
#   libc-bin       zdump and zic: the zone tests read the same tzdata as glibc
#   xdg-utils      xdg-mime and xdg-open: the per-user install's petprogress:// handler and its test
#   sway waybar grim  contrib/waybar's module run in a headless sway and clicked (check-panel-click.sh)
#   tmux           the Today screen in a real terminal at 80 and 40 columns (TodayTerminalTests)
set -euo pipefail
pkgs=(libdbus-1-dev dbus-daemon dbus-bin libglib2.0-bin systemd tzdata util-linux strace python3 bsdutils groff-base
    librsvg2-bin python3-pil gjs desktop-file-utils xdg-utils binutils libc-bin sway waybar grim tmux "$@")
missing=()
for p in "${pkgs[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -eq 0 ]; then
    echo "deps: installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
    echo "deps: missing packages; run: sudo apt-get install -y ${missing[*]}" >&2
    exit 1
fi
