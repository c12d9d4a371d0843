#!/usr/bin/env bash
# Writes petctl.1 from petctl's own help, with argument-parser's generate-manual, and mends the two
# things that tool loses: it drops every non-ASCII character (so "00:00–23:59" read "00:0023:59"), and
# mdoc joins the lines of a command's discussion (so the settings list ran together).
#   usage: man-page.sh PETCTL GENERATE-MANUAL OUTPUT-DIRECTORY
set -euo pipefail
petctl=${1:?usage: man-page.sh PETCTL GENERATE-MANUAL OUTPUT-DIRECTORY}
generate=${2:?} out=${3:?}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# generate-manual runs the tool it is given with --experimental-dump-help. Through this stand-in
# every non-ASCII character reaches it as an ASCII token (@U2013@), which it leaves alone.
cat >"$work/petctl" <<WRAP
#!/bin/sh
"$(readlink -f "$petctl")" "\$@" | python3 -c 'import sys; sys.stdout.write("".join(c if ord(c) < 128 else "@U%04X@" % ord(c) for c in sys.stdin.read()))'
WRAP
chmod +x "$work/petctl"
mkdir -p "$out"
"$generate" "$work/petctl" --output-directory "$out"
page=$out/petctl.1
# The tokens become groff's Unicode escapes; a blank line in a discussion is a paragraph (.Pp); a
# text line that follows another text line starts a new output line (.br), as in `petctl help`.
sed 's/@U\([0-9A-F]\{4,5\}\)@/\\[u\1]/g' "$page" | awk '
    /^$/ { print ".Pp"; text = 0; next }
    /^\./ { print; text = 0; next }
    { if (text) print ".br"; print; text = 1 }
' >"$work/page"
# The single-page manual has no SEE ALSO (and no AUTHORS, which would come after it).
printf '.Sh SEE ALSO\n.Xr petprogress 7\n' >>"$work/page"
# EXIT STATUS: generate-manual's `.Ex -std` says only "0 on success, >0 if an error occurs"; the
# statuses petctl's help lists (1, 3, 4, 64) go there instead, in the help's own words.
statuses=$(sed -n 's/^Exit status: //p' "$work/page" | head -n 1)
if [ -n "$statuses" ]; then
    awk -v statuses="$statuses" '$0 == ".Ex -std" { print statuses; next } { print }' \
        "$work/page" >"$work/page.exit"
    mv "$work/page.exit" "$work/page"
fi
cp "$work/page" "$page"
