#!/usr/bin/env bash
# `make deb`: the Debian package from the shipped build, without debhelper (nothing here compiles):
#   deb.sh VERSION OUTPUT.deb
# The files are scripts/install.sh's, installed as PREFIX=/usr into a staging root; to them Debian
# adds compressed man pages, copyright, changelog.Debian.gz, conffiles, md5sums, the lintian
# overrides (scripts/deb/lintian-overrides) and a control file whose Depends dpkg-shlibdeps computes
# from the two binaries. No maintainer scripts: dpkg's triggers refresh the icon cache, the desktop
# database and man-db.
set -euo pipefail
cd "$(dirname "$0")/.."
version=${1:?usage: deb.sh VERSION OUTPUT.deb}
output=${2:?usage: deb.sh VERSION OUTPUT.deb}
umask 022
work=.build-release/deb
root=$work/root
rm -rf "$work"
mkdir -p "$root/DEBIAN"
arch=$(dpkg --print-architecture)
maintainer="Pet Progress maintainers <maintainers@petprogress.io>"
# Dates from the commit, so the same commit makes the same package.
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}

# zsh: Debian's fpath has vendor-completions, not site-functions, under /usr/share/zsh.
bash scripts/install.sh install PREFIX=/usr DESTDIR="$root" ZSHCOMPLETIONDIR=/usr/share/zsh/vendor-completions >/dev/null
find "$root/usr/share/man" -type f -exec gzip -9n {} +

doc=$root/usr/share/doc/petprogress
sed "s/@year@/$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y)/" scripts/deb/copyright >"$doc/copyright"
{
    echo "petprogress ($version) unstable; urgency=medium"
    echo
    echo "  * Release $version: a binary package of the shipped build (make deb)."
    echo
    echo " -- $maintainer  $(date -u -R -d "@$SOURCE_DATE_EPOCH")"
} | gzip -9n >"$doc/changelog.Debian.gz"
install -D -m 0644 scripts/deb/lintian-overrides "$root/usr/share/lintian/overrides/petprogress"

# Depends: the shared libraries the binaries need, with the versions their symbols need
# (dpkg-shlibdeps reads a debian/control of its own).
mkdir -p "$work/src/debian"
printf 'Source: petprogress\n\nPackage: petprogress\nArchitecture: any\n' >"$work/src/debian/control"
depends=$(cd "$work/src" && dpkg-shlibdeps -O "../root/usr/bin/petprogressd" "../root/usr/bin/petctl" |
    sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || { echo "deb: dpkg-shlibdeps found no dependencies" >&2; exit 1; }
# dpkg-shlibdeps reads the versions of the symbols a binary imports; a version needed without any
# symbol escapes it: GLIBC_ABI_DT_RELR, which packed relocations need (glibc 2.36; libc6's symbols
# file names it). The libc6 floor is the newest of every version the binaries need from libc.
glibc=$(readelf -V "$root/usr/bin/petprogressd" "$root/usr/bin/petctl" |
    awk '/File: /{libc = ($5 == "libc.so.6")} libc && /Name: /{print $3}' | sort -u | while read -r need; do
        awk -v s="$need@$need" '$1 == s {print $2}' /var/lib/dpkg/info/libc6:*.symbols
    done | sort -V | tail -1)
current=$(sed -n 's/.*libc6 (>= \([^)]*\)).*/\1/p' <<<"$depends")
if [ -n "$glibc" ] && [ -n "$current" ] && dpkg --compare-versions "$glibc" gt "$current"; then
    depends=${depends/"libc6 (>= $current)"/"libc6 (>= $glibc)"}
fi

(cd "$root" && find etc -type f -printf '/%p\n' | sort) >"$root/DEBIAN/conffiles"
(cd "$root" && find usr -type f -print0 | sort -z | xargs -0 md5sum) >"$root/DEBIAN/md5sums"
cat >"$root/DEBIAN/control" <<EOF
Package: petprogress
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $(du -sk --exclude=DEBIAN "$root" | cut -f1)
Depends: $depends
Recommends: dbus-user-session
Section: utils
Priority: optional
Description: calm, local-only to-do companion with a pet that grows
 Pet Progress is a to-do list for today on the Linux desktop: each task has
 a time of day, and a pet evolves through 20 forms, from a tadpole to a
 floating god, as tasks are done on time, and slips back when they are
 missed. No notifications, no sounds, no network, no account.
 .
 The package holds the session daemon petprogressd (started by D-Bus
 activation or systemd --user), the command-line client petctl (the Today
 screen, task editing, panel feeds), the pets as icons, a petprogress://
 link handler, and example configurations for waybar, polybar and i3blocks.
EOF
dpkg-deb --root-owner-group -Zxz --build "$root" "$output" >/dev/null
echo "deb: $output ($(du -k "$output" | cut -f1) KiB; Depends: $depends)"
