#!/usr/bin/env bash
# The systemd user unit against `systemd-analyze security --offline=true --user`, used as a
# checklist (it scores almost every user unit as unsafe, whatever the unit does): every finding it
# still reports must be one of those below, each of which does not apply to a user unit or cannot
# work in a user manager. A new finding fails. With PETPROGRESS_RELIABILITY=full it also writes
# the checklist as a fragment for docs/RELIABILITY.md.
set -euo pipefail
cd "$(dirname "$0")/.."

# finding → why it stays (one line each; the fragment prints them).
declare -A accepted=(
    ["User=/DynamicUser="]="does not apply: a user unit runs as its user (the offline check, run as root here, assumes root); User= and DynamicUser= are for the system manager"
    ["RootDirectory=/RootImage="]="cannot work: a user manager cannot mount a root image; the binary and libdbus come from the host"
    ["RestrictAddressFamilies=~AF_UNIX"]="needed: the session bus is an AF_UNIX socket; every other family is already refused"
    ["ProtectHome="]="read-only is the most that works: the data directory is in the home directory (ReadWritePaths=), and the daemon reads the user's stage file (~/.config/petprogress/stages.json) and icons (~/.local/share/icons) there; tmpfs or yes would hide them"
    ["ProcSubset="]="not available in a user manager (systemd.exec(5): system services only); the daemon reads only /proc/self there (strace)"
    ["DeviceAllow="]="does not apply: device ACLs are cgroup BPF programs, which a user manager cannot install; char-rtc:r comes from ProtectClock=, and PrivateDevices= already leaves only pseudo devices"
)

# Resource limits the unit must set (systemd-analyze security does not score them) → why that number.
declare -A limits=(
    ["MemoryHigh=64M"]="the bound a flood of calls must keep the daemon under (it runs at about 11 MiB): above it the kernel reclaims and slows the daemon rather than the session"
    ["MemoryMax=128M"]="twice the flood bound and four times the largest call the session bus passes (32 MiB): a daemon past it is stopped and restarted (Restart=on-failure), its changes already on disk"
    ["TasksMax=8"]="the daemon is one thread (measured); the rest is room for ExecStartPre='s mkdir; more is misbehaviour"
)

work=$(mktemp -d /tmp/confinement-XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -m 0700 "$work/runtime"
sed 's|@bindir@|/usr/local/bin|' systemd-user/petprogress.service.in >"$work/petprogress.service"
XDG_RUNTIME_DIR="$work/runtime" systemd-analyze security --offline=true --user "$work/petprogress.service" \
    >"$work/report" 2>"$work/errors" || { cat "$work/errors"; exit 1; }

failed=0
for setting in "${!limits[@]}"; do
    grep -qxF "$setting" systemd-user/petprogress.service.in || {
        echo "check-confinement: the unit lacks $setting (${limits[$setting]})"
        failed=1
    }
done
findings=()
while IFS= read -r line; do
    name=$(awk '{print $2}' <<<"$line")
    findings+=("$name")
    if [ -z "${accepted[$name]+x}" ]; then
        echo "check-confinement: new finding: $line"
        failed=1
    fi
done < <(grep '^✗' "$work/report")
overall=$(grep -o 'Overall exposure level.*' "$work/report")
passed=$(grep -c '^✓' "$work/report")
echo "check-confinement: ${#findings[@]} findings, all accepted ones: ${findings[*]}; $passed checks pass; $overall"

if [ "${PETPROGRESS_RELIABILITY:-}" = full ]; then
    out=${PETPROGRESS_RELIABILITY_OUT:-.build/reliability}
    mkdir -p "$out"
    {
        echo "## Confinement: the unit"
        echo
        echo "\`scripts/check-confinement.sh\`: \`systemd-analyze security --offline=true --user\` ($(systemd-analyze --version | head -1)) on"
        echo "\`systemd-user/petprogress.service.in\`, as a checklist: $passed checks pass; $overall."
        echo "The findings left, and why each stays:"
        echo
        echo "| finding | exposure | why it stays |"
        echo "| --- | --- | --- |"
        grep '^✗' "$work/report" | while IFS= read -r line; do
            name=$(awk '{print $2}' <<<"$line")
            echo "| \`$name\` | $(awk '{print $NF}' <<<"$line") | ${accepted[$name]} |"
        done
        echo
        echo "Resource limits (not scored by \`systemd-analyze security\`):"
        echo
        echo "| setting | why this number |"
        echo "| --- | --- |"
        for setting in "${!limits[@]}"; do echo "| \`$setting\` | ${limits[$setting]} |"; done | sort
        echo
        echo "Tightened beyond the first unit: \`PrivateMounts=yes\`, \`PrivateUsers=yes\` (a user manager grants a mount"
        echo "namespace only with a user namespace; the sandbox needed unprivileged user namespaces already),"
        echo "\`KeyringMode=private\` (a user manager's default is to inherit the user's session keyring)."
        echo "Listed as passing but without effect in a user manager (systemd.exec(5)): \`ProtectProc=\`."
        echo "Not run under a real user manager here (this machine has none); \`scripts/check-install.sh\`"
        echo "runs \`systemd-analyze verify --user\` on the installed unit."
        echo
    } >"$out/70-confinement.md"
fi
exit $failed
