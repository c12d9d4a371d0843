#!/usr/bin/env bash
# Proves the shipped daemon carries no ICU (docs/DECISIONS.md, "Zones come from the system's tzdata"): `nm` finds, in
# the unstripped binary, no symbol of FoundationInternationalization, of _FoundationICU (ICU's C
# API, renamed swift_u*), of ICU's C++ namespace or of ICU's data (icudt*_dat). Prints its size, and
# its size once stripped as `make install` installs it.
set -euo pipefail
binary=${1:?usage: check-lean-binary.sh PATH/TO/petprogressd}
pattern='Internationalization|FoundationICU|icudt[0-9]+_dat|icu_[0-9]+|swift_(u|uprv|ucnv|ucol|uset|ucal|uloc|udat|unum|ures|utext|ubrk|udata)_'

# The pattern must find ICU where it is: in the toolchain's own static libraries.
static="$(dirname "$(readlink -f "$(command -v swift)")")/../lib/swift_static/linux"
for lib in lib_FoundationICU.a libFoundationInternationalization.a; do
    if [ -f "$static/$lib" ] && [ "$(nm "$static/$lib" 2>/dev/null | grep -cE "$pattern")" -eq 0 ]; then
        echo "check-lean-binary: the pattern finds nothing in $static/$lib; fix the pattern" >&2
        exit 1
    fi
done

symbols=$(nm "$binary" | grep -cE "$pattern" || true)
stripped=$(mktemp)
trap 'rm -f "$stripped"' EXIT
strip -o "$stripped" "$binary"
mb() { awk -v b="$1" 'BEGIN { printf "%.1f MB", b / 1e6 }'; }
echo "shipped daemon: $(mb "$(stat -c %s "$binary")") unstripped, $(mb "$(stat -c %s "$stripped")") stripped;" \
    "ICU or FoundationInternationalization symbols: $symbols"
if [ "$symbols" -ne 0 ]; then
    nm "$binary" | grep -E "$pattern" | head -5 >&2
    echo "check-lean-binary: $binary links ICU; something it builds imports full Foundation" >&2
    exit 1
fi
