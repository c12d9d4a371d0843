#!/usr/bin/env bash
# `make dist`: the release tarball from the shipped build:
#   dist.sh VERSION OUTPUT.tar.gz
# petprogress-VERSION-MACHINE-linux/ holds the tree scripts/install.sh stages (bin/, share/, lib/,
# etc/, with the list that installs it, MANIFEST), that same install.sh, LICENSE and INSTALL.
set -euo pipefail
cd "$(dirname "$0")/.."
version=${1:?usage: dist.sh VERSION OUTPUT.tar.gz}
output=${2:?usage: dist.sh VERSION OUTPUT.tar.gz}
umask 022
name=${output%.tar.gz}
work=.build-release/dist
tree=$work/$name
rm -rf "$work"
mkdir -p "$tree"
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}

bash scripts/install.sh stage "$tree"
install -m 0755 scripts/install.sh "$tree/install.sh"
install -m 0644 LICENSE "$tree/LICENSE"
cat >"$tree/INSTALL" <<EOF
Pet Progress $version for $(uname -m) Linux
============================================

Needs: glibc 2.36 or later (Debian 12, Ubuntu 22.10, Fedora 37 and later: the binaries use packed
relocations, which older loaders cannot read), libdbus-1 (Debian: libdbus-1-3), libstdc++ and a
D-Bus session bus (Debian: dbus-user-session). No Swift toolchain. Optional: xdg-utils (the
petprogress:// link handler becomes your default), desktop-file-utils.

For you alone, without root (files go to ~/.local and your own XDG directories):

    ./install.sh install PREFIX=\$HOME/.local
    ./install.sh uninstall PREFIX=\$HOME/.local

For every user of the machine (PREFIX defaults to /usr/local):

    sudo ./install.sh install
    sudo ./install.sh uninstall

Then, in your session: systemctl --user daemon-reload, and run petctl (its first call starts the
daemon through D-Bus). The installed files and directories are those of \`make install\` from the
sources, from the same list (MANIFEST); each directory can be set as for make (BINDIR=…, see the
head of install.sh). Uninstall removes exactly those files, never your data
(~/.local/share/petprogress). The Debian package (petprogress_${version}-1_*.deb) is the easier way
on Debian and Ubuntu: sudo apt install ./petprogress_…deb
EOF
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$SOURCE_DATE_EPOCH" -C "$work" -cf - "$name" |
    gzip -9n >"$output"
echo "dist: $output ($(du -k "$output" | cut -f1) KiB)"
