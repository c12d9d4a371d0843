#!/usr/bin/env bash
# make test: the AppStream metadata (data/io.petprogress.PetProgress.metainfo.xml) under this
# machine's appstreamcli, `validate --pedantic --no-net`: it must validate, and every finding but
# the ones named here fails. Debian 13's appstreamcli (1.0.5) checks the installed file again in
# make check-debian (scripts/check-debian-build.sh), with the same allowed findings.
#   check-metainfo.sh [METAINFO]
# Allowed, each for a reason the file cannot change (docs/DECISIONS.md, "`make test` validates the metainfo"):
#   cid-contains-uppercase-letter  pedantic: the id is the desktop entry's name, as the
#                                  specification asks of a desktop application
#   url-homepage-missing           no public address exists yet
#   unknown-tag developer          appstreamcli before 1.0 (Debian 12's 0.16) does not know
#                                  <developer>, which 1.0 asks for instead of <developer_name>
set -euo pipefail
file=${1:-$(dirname "$0")/../data/io.petprogress.PetProgress.metainfo.xml}
command -v appstreamcli > /dev/null || { echo "metainfo: appstreamcli is missing (package appstream: scripts/deps.sh test)"; exit 1; }
version=$(appstreamcli --version 2>/dev/null | sed -n 's/^[^0-9]*\([0-9][0-9.]*\).*/\1/p' | head -1)
report=$(appstreamcli validate --pedantic --no-net "$file" 2>&1) && rc=0 || rc=$?
issues=$(grep -E '^[EWIP]: ' <<<"$report" |
    grep -vE ': (cid-contains-uppercase-letter|url-homepage-missing)( |$)|: unknown-tag developer$' || true)
# appstreamcli 1.0 exits 3 on a warning, allowed ones too: the findings decide, and a report that
# names none while failing (a file it could not read) fails.
if [ -n "$issues" ] || { [ $rc -ne 0 ] && ! grep -qE '^[EWIP]: ' <<<"$report"; }; then
    echo "metainfo: appstreamcli $version validate --pedantic --no-net $file (exit $rc):"
    echo "$report"
    exit 1
fi
echo "metainfo: valid under appstreamcli $version --pedantic (allowed: $(grep -cE '^[EWIP]: ' <<<"$report" || true) named findings)"
