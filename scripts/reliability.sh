#!/usr/bin/env bash
# make reliability: the reliability evidence at full size. Each step is a test run with
# PETPROGRESS_RELIABILITY=full, which writes a markdown fragment NN-name.md into
# $PETPROGRESS_RELIABILITY_OUT; the fragments, in name order, become docs/RELIABILITY.md.
# The Makefile builds first and names the binaries under test (PETPROGRESSD, PETLOAD, HOSTILE_CLIENT, and
# PETCTL_RELEASE for the long catch-up's export and import).
set -uo pipefail
cd "$(dirname "$0")/.."

out=.build/reliability
rm -rf "$out"
mkdir -p "$out"
export PETPROGRESS_RELIABILITY=full PETPROGRESS_RELIABILITY_OUT="$PWD/$out"
failed=""
started=$(date +%s)
# The machine's load as the run began: the rates and counts below are this machine's, shared or not.
load_at_start=$(cut -d' ' -f1-3 /proc/loadavg)

# step NAME COMMAND...: runs one step, remembering a failure without stopping the others.
step() {
    local name=$1
    shift
    echo "== $name ($(date -u +%H:%M:%S))"
    "$@" || failed="$failed $name"
}

swift_test() { swift test --skip-build --filter "$1"; }

step load swift_test 'IntegrationTests.Reliability/LoadTests'
step crashes swift_test 'IntegrationTests.Reliability/CrashLoadTests'
step bus-loss swift_test 'IntegrationTests.Reliability/BusLossTests'
step soak swift_test 'IntegrationTests.Reliability/SoakTests'

# Clock and zone trouble against the real binary: what this machine allows — zone
# changes in a private mount namespace and replaced zone files; the tests' own names say what each
# checks, and the fragment lists those that passed.
zone_trouble() {
    local log="$out/zone.log"
    swift test --skip-build --filter 'IntegrationTests.(ZoneChangeTests|LocalZoneTests)' >"$log" 2>&1
    local status=$?
    local daemon=${PETPROGRESSD:-.build/debug/petprogressd}
    {
        echo "## Clock and zone trouble: the real binary"
        echo
        echo "\`ZoneChangeTests\` and \`LocalZoneTests\` against \`${daemon#"$PWD"/}\`: \`/etc/localtime\` changed"
        echo "in private mount namespaces (\`unshare -m\`, a copy of \`/etc\` bind-mounted over it), and zone files"
        echo "named by \`TZ\` replaced as a tzdata upgrade does; the host's clock and \`/etc/localtime\` are never"
        echo "touched. Clock jumps are not tested on the real binary (docs/DECISIONS.md, \"Clock jumps of the"
        echo "real binary are not tested\": only the real clock honours them, and a test cannot move it without"
        echo "moving the host's)."
        echo
        grep -E '^(✔|✘) Test ' "$log" | grep -v '^. Test run ' | sed -E 's/^(✔|✘) Test (.*) (passed|failed) after .*/- \1 \2/' | sort -u
        echo
    } >"$out/50-clock-zone.md"
    return $status
}

step zone-trouble zone_trouble
step hostile-input swift_test 'IntegrationTests.Reliability/HostileBurstTests'
step floods swift_test 'IntegrationTests.Reliability/FloodTests'
step loader-fuzz swift_test 'PetStoreTests.LoaderFuzzTests'
step extreme-values swift_test 'IntegrationTests.Reliability/ExtremeValueTests'
# One pet on two machines (docs/SYNC.md): the model's properties and the simulated synced folder, long sizes.
step sync swift_test 'PetSyncTests\.'
# Its ten-year export and import (365 MB) through the shipped petctl, as a user would run them.
step long-catch-up env ${PETCTL_RELEASE:+PETCTL="$PETCTL_RELEASE"} swift test --skip-build --filter 'IntegrationTests.Reliability/LongCatchUpTests'

# The data directory's attacks (links planted by another user, FIFOs, another user's directory and
# files, SIGTERM during the start), each a test that passes or fails: the fragment lists them.
data_directory() {
    local log="$out/data-directory.log"
    swift test --skip-build --filter 'IntegrationTests.DataDirectorySafetyTests|PetStoreTests.PlantedFileTests' >"$log" 2>&1
    local status=$?
    local daemon=${PETPROGRESSD:-.build/debug/petprogressd}
    {
        echo "## The data directory: links, FIFOs, other users"
        echo
        echo "\`PlantedFileTests\` (the store) and \`DataDirectorySafetyTests\` (against \`${daemon#"$PWD"/}\`, and the"
        echo "debug \`petctl\`), as root with the attacks planted by \`nobody\` (\`setpriv\`) in a directory left"
        echo "writable to others; the victim is a file beside it that must come out unchanged. Each refused start"
        echo "is one line and status 78, within the 20 s a FIFO would otherwise have held it."
        echo
        grep -E '^(✔|✘) Test ' "$log" | grep -v '^. Test run ' | sed -E 's/^(✔|✘) Test (.*) (passed|failed) after .*/- \1 \2/' | sort -u
        echo
    } >"$out/66-data-directory.md"
    return $status
}

step data-directory data_directory
step confinement bash scripts/check-confinement.sh
step confinement-strace swift_test 'IntegrationTests.IsolationTests/confined'

# What no step generates, kept beside this script: the tables of the imports', arguments' and bus
# attacks measured by hand before and after each was closed, and the attacks closed with their tests.
cp scripts/reliability-unbreakable.md "$out/64-unbreakable.md"
cp scripts/reliability-bus-attacks.md "$out/67-bus-attacks.md"
cp scripts/reliability-attacks.md "$out/95-attacks-closed.md"

minutes=$(( ($(date +%s) - started + 59) / 60 ))
{
    echo "# Reliability"
    echo
    echo "Generated by \`make reliability\` (scripts/reliability.sh) — do not edit by hand."
    echo "Run $(date -u +%Y-%m-%d) on $(nproc) cores, $(uname -sr), data on $(df -T "$out" | awk 'NR==2 {print $2}'),"
    echo "commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown), in about $minutes minutes."
    [ -z "${load_at_start:-}" ] || echo "Load average (1, 5, 15 min): $load_at_start at the start, $(cut -d' ' -f1-3 /proc/loadavg) at the end."
    if [ -n "$failed" ]; then echo; echo "**Failed steps:$failed** (their sections are missing or incomplete)."; fi
    echo
    for fragment in "$out"/*.md; do
        [ -e "$fragment" ] && { cat "$fragment"; echo; }
    done
} > docs/RELIABILITY.md
echo "docs/RELIABILITY.md written"
if [ -n "$failed" ]; then echo "make reliability: failed:$failed"; exit 1; fi
echo "make reliability: every step passed"
