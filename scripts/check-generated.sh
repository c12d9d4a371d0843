#!/usr/bin/env bash
# make test: petctl's generated completions and man page exist and know every subcommand.
set -euo pipefail
dir=${1:?usage: check-generated.sh GENERATED-DIR}
subcommands=(today tomorrow add edit rm templates done snooze undo settings status timeline open rest history log export generations restore simulate)
failed=0
for file in completions/petctl.bash completions/_petctl completions/petctl.fish man/petctl.1; do
    path="$dir/$file"
    if [ ! -s "$path" ]; then echo "generated: $path is missing or empty"; failed=1; continue; fi
    for sub in "${subcommands[@]}"; do
        grep -qw -- "$sub" "$path" || { echo "generated: $path does not mention '$sub'"; failed=1; }
    done
done
bash -n "$dir/completions/petctl.bash" || { echo "generated: the bash completion does not parse"; failed=1; }
grep -qx '\.Xr petprogress 7' "$dir/man/petctl.1" || { echo "generated: petctl.1 does not name petprogress(7)"; failed=1; }
# The man pages render without warnings: petctl's, and the hand-written petprogress(7).
if command -v groff >/dev/null; then
    for page in "$dir/man/petctl.1" "$(dirname "$0")/../docs/petprogress.7"; do
        warnings=$(groff -mandoc -Tutf8 -ww -z "$page" 2>&1 || true)
        [ -z "$warnings" ] || { echo "generated: groff warns on $page: $warnings"; failed=1; }
    done
fi
# What generate-manual alone lost: every non-ASCII character, and the settings list's lines.
if command -v groff >/dev/null; then
    page=$(groff -mandoc -Tutf8 "$dir/man/petctl.1" 2>/dev/null | sed 's/\x1b\[[0-9;]*m//g; s/.\x08//g')
    grep -q '1–200' <<<"$page" || { echo "generated: petctl.1 lost the en dash of 1–200"; failed=1; }
    grep -qE '^ +grace +minutes either side' <<<"$page" || { echo "generated: petctl.1 runs the settings list together"; failed=1; }
    # Its EXIT STATUS section lists every status, 4 among them, not only "0 on success, >0".
    exit_section=$(sed -n '/^EXIT STATUS/,/^SEE ALSO/p' <<<"$page" | tr -s ' \n' ' ')
    grep -q '4 the daemon did not answer in time' <<<"$exit_section" ||
        { echo "generated: petctl.1's EXIT STATUS does not list 4: $exit_section"; failed=1; }
fi
[ "$failed" -eq 0 ] && echo "generated: completions (bash, zsh, fish) and petctl.1 cover ${#subcommands[@]} subcommands"
exit "$failed"
