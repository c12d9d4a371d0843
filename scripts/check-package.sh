#!/usr/bin/env bash
# The package and the tarball as files (check-package-roots.sh installs them):
#   check-package.sh PACKAGE.deb TARBALL.tar.gz
# lintian --fail-on error,warning; the package holds exactly install.sh's list for PREFIX=/usr plus
# Debian's own files, and no maintainer script; the tarball's install.sh installs, system-wide and
# per user, exactly the tree `make install` (scripts/install.sh) installs with the same settings.
set -euo pipefail
cd "$(dirname "$0")/.."
deb=${1:?usage: check-package.sh PACKAGE.deb TARBALL.tar.gz}
tarball=${2:?usage: check-package.sh PACKAGE.deb TARBALL.tar.gz}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}

lintian --fail-on error,warning "$deb" >"$work/lintian" 2>&1 || fail "lintian: $(grep -v 'root privileges' "$work/lintian")"

bash scripts/install.sh list PREFIX=/usr ZSHCOMPLETIONDIR=/usr/share/zsh/vendor-completions |
    awk -F'\t' '{ p = $2; if (p ~ /^\/usr\/share\/man\//) p = p ".gz"; print "." p }' >"$work/expected"
printf './usr/share/doc/petprogress/%s\n' copyright changelog.Debian.gz >>"$work/expected"
echo ./usr/share/lintian/overrides/petprogress >>"$work/expected"
sort -o "$work/expected" "$work/expected"
dpkg-deb -c "$deb" | awk '$1 !~ /^d/ {print $6}' | sort >"$work/packaged"
cmp -s "$work/expected" "$work/packaged" ||
    fail "the package's files differ from install.sh's list: $(diff "$work/expected" "$work/packaged" | head -5 | tr '\n' ' ')"
dpkg-deb --ctrl-tarfile "$deb" | tar -t | sed 's|^\./||' | grep -v '^$' | sort | tr '\n' ' ' >"$work/control-files"
[ "$(cat "$work/control-files")" = "conffiles control md5sums " ] || fail "control files: $(cat "$work/control-files") (no maintainer scripts wanted)"
depends=$(dpkg-deb -f "$deb" Depends)
for want in "libc6 (>= 2.36)" libdbus-1-3; do
    [[ $depends == *"$want"* ]] || fail "Depends lacks $want: $depends"
done
[ "$(dpkg-deb -f "$deb" Recommends)" = dbus-user-session ] || fail "Recommends: $(dpkg-deb -f "$deb" Recommends)"

# make install asks only for the run list (and the build list only to build what is missing).
make -n --no-print-directory install PREFIX="$work/x" | grep -o 'deps.sh .*' >"$work/deps" || true
[ "$(cat "$work/deps")" = "deps.sh run" ] || fail "make install asks for: $(tr '\n' ' ' <"$work/deps")"

tar -C "$work" -xzf "$tarball"
dir=$work/$(basename "$tarball" .tar.gz)
for prefix in /usr/local "$work/home/.local"; do
    for how in tarball make; do
        if [ $how = tarball ]; then script=$dir/install.sh; else script=scripts/install.sh; fi
        HOME=$work/home XDG_DATA_HOME= XDG_CONFIG_HOME= bash "$script" install PREFIX="$prefix" DESTDIR="$work/$how" >/dev/null
        (cd "$work/$how" && find . -printf '%p %m\n' | sort && find . -type f -print0 | sort -z | xargs -0 sha256sum) >"$work/$how.tree"
    done
    cmp -s "$work/tarball.tree" "$work/make.tree" ||
        fail "PREFIX=$prefix: the tarball's install differs from make install's: $(diff "$work/make.tree" "$work/tarball.tree" | head -5 | tr '\n' ' ')"
    HOME=$work/home bash "$dir/install.sh" uninstall PREFIX="$prefix" DESTDIR="$work/tarball" >/dev/null
    [ -z "$(find "$work/tarball" ! -type d)" ] || fail "PREFIX=$prefix: the tarball's uninstall left $(find "$work/tarball" ! -type d | head -3)"
    rm -rf "$work/tarball" "$work/make"
done
echo "package files: $failures failed"
[ "$failures" -eq 0 ]
