# Sourced, not run: a private desktop session for the scripts that show or click a real panel
# (panel-screenshots.sh, screenshot.sh, check-panel-click.sh, check-tray-waybar.sh,
# check-tray-xfce.sh). It gives them a work directory, the real daemon on a private bus, a headless
# sway with a virtual pointer to click with, waybar with contrib/'s module, `petctl tray`, every
# process started by PID and stopped by PID at exit, waits that always end, and the checks' verdicts.
#
# sway refuses to run as root, so as root everything runs as uid 65534 (setpriv); as another user,
# as that user. The caller sets `repo`, `build` (holding petctl and petprogressd) and `me` (its name,
# for messages), then calls session_init.
# shellcheck shell=bash disable=SC2034,SC2154 # variables are shared with the caller both ways

# Fails unless every named command is on PATH.
need_tools() {
    local tool
    for tool in "$@"; do
        command -v "$tool" >/dev/null || { echo "$me: $tool is missing (scripts/deps.sh installs it)" >&2; exit 1; }
    done
}

# Makes the work directory (bin with copies of petctl and petprogressd, home, a 0700 runtime and data
# directory), picks the user to run as, and stops everything and removes the directory at exit
# (KEEP=1 keeps it).
session_init() {
    local bin
    for bin in petctl petprogressd; do
        [ -x "$build/$bin" ] || { echo "$me: no $build/$bin (swift build --product $bin)" >&2; exit 1; }
    done
    work=$(mktemp -d "/tmp/$me.XXXXXX")
    chmod 0755 "$work"
    mkdir -p "$work/bin" "$work/home/.config/waybar" "$work/shots"
    mkdir -m 0700 "$work/run" "$work/data"
    # Copies, not links: the panel user may not be allowed into the directory of the build.
    cp "$build/petctl" "$build/petprogressd" "$work/bin/"
    if [ "$(id -u)" = 0 ]; then
        as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
    else
        as_user=()
    fi
    own_work
    user_env=(HOME="$work/home" PATH="$work/bin:/usr/local/bin:/usr/bin:/bin" LANG=C.UTF-8 TZ=Europe/Berlin
        XDG_RUNTIME_DIR="$work/run" DBUS_SESSION_BUS_ADDRESS="unix:path=$work/run/bus" NO_AT_BRIDGE=1)
    pids=()
    passed=0
    trap cleanup EXIT
}

# A check's verdicts: pass counts one and says it; fail says what failed and the logs' ends, then
# the count, and exits.
pass() { passed=$((passed + 1)) && echo "ok: $*"; }
fail() {
    echo "FAIL: $*" >&2
    tail -n 5 "$work"/*.log >&2 2>/dev/null || true
    echo "$passed passed, 1 failed"
    exit 1
}

# Hands the work directory's contents to the panel user (after the caller writes more files).
own_work() {
    [ "$(id -u)" != 0 ] || chown -R 65534:65534 "$work/run" "$work/data" "$work/home" "$work/shots"
}

# Replaces the calling subshell with COMMAND as the panel user, in a clean environment.
exec_as() { exec ${as_user[@]+"${as_user[@]}"} env -i "${user_env[@]}" "$@"; }
run_as() { (exec_as "$@"); }
petctl() { run_as petctl "$@"; }

# Starts COMMAND in the background, logging to NAME.log; its PID is the command's own.
start() {
    local name=$1
    shift
    (exec_as "$@") >"$work/$name.log" 2>&1 &
    pids+=("$!")
}

# A process's descendants, listed before it is stopped (a panel's exec child may outlive it).
descendants() {
    local child
    for child in $(ps -o pid= --ppid "$1" 2>/dev/null); do echo "$child" && descendants "$child"; done
}
stop_tree() {
    local below
    below=$(descendants "$1")
    kill "$1" 2>/dev/null || true
    for pid in $below; do kill "$pid" 2>/dev/null || true; done
}

# Processes that name the work directory, which are ours (i3 starts i3bar outside its own tree).
marked() {
    local cmd
    for cmd in /proc/[0-9]*/cmdline; do
        grep -qF "$work" "$cmd" 2>/dev/null && basename "$(dirname "$cmd")"
    done
}

cleanup() {
    local i pid
    for ((i = ${#pids[@]} - 1; i >= 0; i--)); do stop_tree "${pids[i]}"; done
    for pid in $(marked); do stop_tree "$pid"; done
    if [ "${KEEP:-0}" = 1 ]; then echo "work directory kept: $work"; else rm -rf "$work"; fi
}

# Polls a test command every 50 ms for at most SECONDS; on time-out, shows the logs and fails.
wait_for() {
    local deadline=$((SECONDS + $1))
    shift
    until "$@"; do
        if [ "$SECONDS" -ge "$deadline" ]; then
            echo "$me: timed out waiting for: $*" >&2
            tail -n 5 "$work"/*.log >&2 2>/dev/null || true
            exit 1
        fi
        sleep 0.05
    done
}

# The private session bus of the work directory.
start_bus() {
    start dbus dbus-daemon --session --address="unix:path=$work/run/bus" --nofork --nopidfile
    wait_for 20 test -S "$work/run/bus"
}

# The daemon, with its own options (e.g. --now), answering on the bus; sets daemon_pid.
start_daemon() {
    start daemon petprogressd --data-dir "$work/data" "$@"
    daemon_pid=${pids[-1]}
    wait_for 30 daemon_up
}
daemon_up() { petctl status >/dev/null 2>&1; }

# Stops the daemon and waits until it has exited (its data written, its lock released).
stop_daemon() {
    kill "$daemon_pid"
    wait_for 30 exited "$daemon_pid"
}
# True when PID is gone or a zombie (a child of this shell that exited).
exited() { [ ! -e "/proc/$1" ] || grep -q '^[0-9]* (.*) Z ' "/proc/$1/stat" 2>/dev/null; }

# A headless sway with one WIDTHxHEIGHT output and the panel user's environment pointed at it:
# WAYLAND_DISPLAY for clients, SWAYSOCK for swaymsg. Extra sway config lines may follow.
start_sway() {
    local size=$1 line
    shift
    printf 'xwayland disable\noutput * resolution %s bg #2e3440 solid_color\n' "$size" >"$work/sway.conf"
    for line in "$@"; do echo "$line" >>"$work/sway.conf"; done
    user_env+=(WLR_BACKENDS=headless WLR_LIBINPUT_NO_DEVICES=1 WLR_RENDERER=pixman)
    start sway sway -c "$work/sway.conf"
    wait_for 30 sway_ready
    user_env+=(WAYLAND_DISPLAY="$(basename "$(compgen -G "$work/run/wayland-[0-9]" | head -n 1)")"
        SWAYSOCK="$(compgen -G "$work/run/sway-ipc.*.sock" | head -n 1)")
}
sway_ready() { compgen -G "$work/run/wayland-[0-9]" >/dev/null && compgen -G "$work/run/sway-ipc.*.sock" >/dev/null; }

# A headless sway has no input device, so no client binds a pointer: scripts/virtual-pointer.py
# lends the seat one, held while its stdin (a pipe from this shell) stays open, that is until exit.
start_pointer() {
    local ready
    cp "$repo/scripts/virtual-pointer.py" "$work/bin/"
    coproc pointer { exec_as /usr/bin/python3 "$work/bin/virtual-pointer.py" 2>"$work/pointer.log"; }
    pids+=("$pointer_PID")
    read -r -t 30 ready <&"${pointer[0]}" || true
    [ "${ready:-}" = ready ] || fail "no virtual pointer: $(cat "$work/pointer.log")"
}

# Clicks BUTTON (button1, button3, …) at X in the middle of a 30-pixel bar along the top, with
# sway's own seat commands (they move the virtual pointer's cursor there and press it).
click() {
    local command
    for command in "cursor set $1 15" "cursor press $2" "cursor release $2"; do
        run_as swaymsg -q "seat - $command" || fail "sway refused: seat - $command"
    done
}

# waybar's configuration set up as contrib/README.md tells a user: contrib's config as the user's,
# and a style.css importing contrib's stylesheet (and any more named) above waybar's default style.
waybar_config() {
    local css
    cp "$repo/contrib/waybar/config.jsonc" "$work/home/.config/waybar/config"
    cp "$repo/contrib/waybar/style.css" "$work/home/.config/waybar/petprogress.css"
    {
        echo '@import "petprogress.css";'
        for css in "$@"; do echo "@import \"$css\";"; done
        cat /etc/xdg/waybar/style.css
    } >"$work/home/.config/waybar/style.css"
    own_work
}

# Installs the pet art (pet_<stage>.png in DIR, default data/pets) as the panel user's own icons,
# where `make install PREFIX=~/.local` puts them, so the daemon's icon_path finds them, and writes
# contrib/waybar/icons.css with its path changed as contrib/README.md says, for waybar_config.
install_icons() {
    local png stage art=${1:-$repo/data/pets} icons="$work/home/.local/share/icons/hicolor/512x512/apps"
    mkdir -p "$icons"
    for png in "$art"/pet_*.png; do
        stage=${png##*/pet_}
        cp "$png" "$icons/petprogress-$stage"
    done
    sed "s#/usr/local/share#$work/home/.local/share#" "$repo/contrib/waybar/icons.css" \
        >"$work/home/.config/waybar/petprogress-icons.css"
    own_work
}

# The colour contrib/waybar/style.css gives a stage's module, as rrggbb.
stage_colour() {
    sed -n "s/^#custom-petprogress\.$1 *{ *background-color: #\([0-9a-f]\{6\}\);.*/\1/p" \
        "$repo/contrib/waybar/style.css"
}

# `petctl tray` (which never starts the daemon itself), waiting until the panel's
# StatusNotifierWatcher lists its item; sets tray_pid.
start_tray() {
    start tray petctl tray
    tray_pid=${pids[-1]}
    wait_for 30 tray_registered
}
tray_registered() {
    run_as busctl --user get-property org.kde.StatusNotifierWatcher /StatusNotifierWatcher \
        org.kde.StatusNotifierWatcher RegisteredStatusNotifierItems 2>/dev/null | grep -q "StatusNotifierItem-$tray_pid-1"
}

# True when a process under PID runs `petctl watch`.
runs_watch() {
    local child
    grep -q '^petctl.watch' <(tr '\0' ' ' <"/proc/$1/cmdline" 2>/dev/null) && return 0
    for child in $(ps -o pid= --ppid "$1" 2>/dev/null); do runs_watch "$child" && return 0; done
    return 1
}

# The colour of one pixel of the screen, as rrggbb.
pixel() { run_as grim -t ppm -g "$1,$2 1x1" - | tail -c 3 | od -An -tx1 | tr -d ' \n'; }
