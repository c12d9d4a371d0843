#!/usr/bin/env bash
# The Debian source package (debian/), as a maintainer would upload it:
#   debian-source.sh OUTDIR
# writes into OUTDIR petprogress_VERSION.orig.tar.xz (the repository's files, without debian/),
# petprogress_VERSION.orig-swift-argument-parser.tar.xz (swift-argument-parser at the revision
# Package.resolved pins, from SwiftPM's own clone under .build/repositories: the component that lets
# the package build offline), and, from them and debian/, the .dsc and .debian.tar.xz
# (dpkg-source -b). Prints the .dsc's path. Needs a resolved package (swift build or swift package
# resolve has run) and dpkg-dev.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: debian-source.sh OUTDIR}
mkdir -p "$out"
out=$(cd "$out" && pwd)
version=$(sed -n 's/^ *public static let version = "\(.*\)"$/\1/p' Sources/PetCore/Product.swift)
upstream=$(dpkg-parsechangelog -S Version | sed 's/-[^-]*$//')
[ "$version" = "$upstream" ] || { echo "debian-source: debian/changelog says $upstream, the sources $version" >&2; exit 1; }
[ -f Package.resolved ] || swift package resolve >&2
revision=$(python3 -c 'import json; print(next(p["state"]["revision"] for p in json.load(open("Package.resolved"))["pins"] if p["identity"] == "swift-argument-parser"))')
clone=$(find .build/repositories -maxdepth 1 -name 'swift-argument-parser-*' -type d | head -1)
[ -n "$clone" ] && git -C "$clone" cat-file -e "$revision^{commit}" ||
    { echo "debian-source: no clone of swift-argument-parser at $revision under .build/repositories (run swift package resolve)" >&2; exit 1; }
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct)}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tree=$work/petprogress-$version
mkdir -p "$tree"
# The repository's files as they are in the work tree (tracked, and new ones not ignored).
git ls-files -z --cached --others --exclude-standard | grep -zv '^debian/' |
    while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
    tar --null -T - -cf - | tar -C "$tree" -xf -
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$SOURCE_DATE_EPOCH" -C "$work" \
    -cf - "petprogress-$version" | xz -9 >"$work/petprogress_$version.orig.tar.xz"
git -C "$clone" archive --format=tar --prefix=swift-argument-parser/ "$revision" |
    xz -9 >"$work/petprogress_$version.orig-swift-argument-parser.tar.xz"
mkdir "$tree/swift-argument-parser"
git -C "$clone" archive --format=tar "$revision" | tar -C "$tree/swift-argument-parser" -xf -
cp -a debian "$tree/debian"
rm -rf "$tree/debian/swift-build" "$tree/debian/.home"
(cd "$work" && dpkg-source -b "petprogress-$version" >&2)
rm -f "$out"/petprogress_*
mv "$work"/petprogress_*.* "$out/"
ls "$out"/petprogress_*.dsc
