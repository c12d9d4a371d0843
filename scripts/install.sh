#!/usr/bin/env bash
# `make install` and `make uninstall`: one list of installed files (manifest, below) drives both, so
# uninstall removes exactly what install put there and nothing else — never the user's data.
#   install.sh install|uninstall|list
# The Makefile passes every directory (BINDIR, DATADIR, …, with DESTDIR apart) and USER_INSTALL=yes
# for a prefix inside $HOME, whose session files go to the user's own XDG directories.
set -euo pipefail
cd "$(dirname "$0")/.."
action=${1:?usage: install.sh install|uninstall|list}
: "${BINDIR:?} ${MANDIR:?} ${DOCDIR:?} ${ICONDIR:?} ${APPLICATIONSDIR:?} ${AUTOSTARTDIR:?}"
: "${DBUSSERVICEDIR:?} ${DBUSINTERFACEDIR:?} ${SYSTEMDUSERUNITDIR:?} ${BASHCOMPLETIONDIR:?}"
: "${ZSHCOMPLETIONDIR:?} ${FISHCOMPLETIONDIR:?} ${DAEMON:?} ${PETCTL:?} ${GENERATED:?}"
DESTDIR=${DESTDIR:-}
USER_INSTALL=${USER_INSTALL:-}
HANDLER=io.petprogress.PetProgress.desktop
SCHEME=x-scheme-handler/petprogress

# One line per installed file: mode, destination (without DESTDIR), source, and how to copy it
# (copy, strip: a stripped binary, subst: @bindir@ replaced). Tab-separated.
manifest() {
    entry 0755 "$BINDIR/petprogressd" "$DAEMON" strip
    entry 0755 "$BINDIR/petctl" "$PETCTL" strip
    entry 0644 "$DBUSINTERFACEDIR/io.petprogress.PetProgress1.xml" dbus/io.petprogress.PetProgress1.xml
    entry 0644 "$DBUSSERVICEDIR/io.petprogress.PetProgress1.service" dbus/io.petprogress.PetProgress1.service.in subst
    entry 0644 "$SYSTEMDUSERUNITDIR/petprogress.service" systemd-user/petprogress.service.in subst
    entry 0644 "$APPLICATIONSDIR/$HANDLER" "data/$HANDLER.in" subst
    entry 0644 "$AUTOSTARTDIR/petprogressd.desktop" data/petprogressd.desktop.in subst
    # The names the daemon's icon_path and the desktop look for: petprogress-<base>.
    local svg base
    for svg in data/pets/pet_*.svg; do
        base=${svg#data/pets/pet_}
        base=${base%.svg}
        entry 0644 "$ICONDIR/scalable/apps/petprogress-$base.svg" "$svg"
        entry 0644 "$ICONDIR/512x512/apps/petprogress-$base.png" "data/pets/pet_$base.png"
        entry 0644 "$ICONDIR/symbolic/apps/petprogress-$base-symbolic.svg" \
            "data/pets/symbolic/petprogress-$base-symbolic.svg"
    done
    entry 0644 "$BASHCOMPLETIONDIR/petctl" "$GENERATED/completions/petctl.bash"
    entry 0644 "$ZSHCOMPLETIONDIR/_petctl" "$GENERATED/completions/_petctl"
    entry 0644 "$FISHCOMPLETIONDIR/petctl.fish" "$GENERATED/completions/petctl.fish"
    entry 0644 "$MANDIR/man1/petctl.1" "$GENERATED/man/petctl.1"
    entry 0644 "$MANDIR/man7/petprogress.7" docs/petprogress.7
    # The panel configurations, as documentation; GNOME Shell's extension installs from its own
    # zip (make gnome-extension), and tests/ are the repository's, not the user's.
    local file
    while IFS= read -r -d '' file; do
        entry "$([ -x "$file" ] && echo 0755 || echo 0644)" "$DOCDIR/${file#contrib/}" "$file"
    done < <(find contrib -mindepth 1 -type f ! -path 'contrib/gnome-shell/*' ! -path '*/tests/*' -print0 | sort -z)
}

entry() {
    printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "${4:-copy}"
}

install_file() {
    local mode=$1 dest=$DESTDIR$2 source=$3 how=$4
    [ -f "$source" ] || { echo "install: $source is missing (make release completions man builds it)" >&2; return 1; }
    case $how in
        strip) install -D -s -m "$mode" "$source" "$dest" ;;
        subst)
            local text
            text=$(<"$source")
            mkdir -p "$(dirname "$dest")"
            printf '%s\n' "${text//@bindir@/$BINDIR}" >"$dest.tmp"
            install -D -m "$mode" "$dest.tmp" "$dest"
            rm -f "$dest.tmp"
            ;;
        copy) install -D -m "$mode" "$source" "$dest" ;;
    esac
}

# What a person does after `make install`: the files are listed by `install.sh list`, not here.
next_steps() {
    local count
    count=$(manifest | wc -l)
    echo "Installed petctl, petprogressd and $((count - 2)) more files under ${DESTDIR}${BINDIR%/bin}."
    [ -z "$DESTDIR" ] || return 0
    case ":$PATH:" in
        *":$BINDIR:"*) ;;
        *) echo "$BINDIR is not on your PATH: add it, e.g. export PATH=\"$BINDIR:\$PATH\"" ;;
    esac
    echo "Next, try:"
    echo "  petctl add 18:00 'Water the plants'   # the daemon starts on its own (D-Bus activation)"
    echo "  petctl today                          # the pet and today's tasks"
    echo "  man petctl                            # every command; petprogress(7) has the rules"
    echo "Panels (waybar, polybar, i3blocks, GNOME): $DOCDIR/README.md"
}

# Caches are refreshed only for a live install (never in a DESTDIR) and only with the tools at hand.
# An icon cache is only refreshed where one exists: creating one would hide icons that other
# programs install later without refreshing it. The desktop database (mimeinfo.cache) is what
# xdg-mime's lookups read, so it is written, and removed again on uninstall when it lists nothing.
refresh_caches() {
    [ -z "$DESTDIR" ] || return 0
    if [ -f "$ICONDIR/icon-theme.cache" ] && command -v gtk-update-icon-cache >/dev/null; then
        gtk-update-icon-cache -q -t -f "$ICONDIR" || true
    fi
    if [ -d "$APPLICATIONSDIR" ] && command -v update-desktop-database >/dev/null; then
        update-desktop-database -q "$APPLICATIONSDIR" || true
        local cache=$APPLICATIONSDIR/mimeinfo.cache
        if [ "$action" = uninstall ] && [ -f "$cache" ] && [ "$(grep -cv '^\[MIME Cache\]$\|^$' "$cache")" = 0 ]; then
            rm -f "$cache"
        fi
    fi
}

# A per-user install makes the handler the user's default for petprogress:// links (petprogress(7) §8);
# uninstall takes back that one line, and the file when nothing else is left in it.
set_default_handler() {
    [ -z "$DESTDIR" ] && [ "$USER_INSTALL" = yes ] || return 0
    if command -v xdg-mime >/dev/null; then
        xdg-mime default "$HANDLER" "$SCHEME"
        echo "  $SCHEME → $HANDLER (xdg-mime default)"
    else
        echo "install: xdg-mime is missing; petprogress:// links open with: xdg-mime default $HANDLER $SCHEME" >&2
    fi
    systemctl --user daemon-reload 2>/dev/null || true
}

unset_default_handler() {
    [ -z "$DESTDIR" ] && [ "$USER_INSTALL" = yes ] || return 0
    local list=${MIMEAPPS:?}
    [ -f "$list" ] && grep -qxF "$SCHEME=$HANDLER" "$list" || return 0
    grep -vxF "$SCHEME=$HANDLER" "$list" >"$list.tmp" || true
    if grep -qv '^\[.*\]$\|^$' "$list.tmp"; then
        cat "$list.tmp" >"$list"  # Keeps the file's own mode and owner.
        rm -f "$list.tmp"
    else
        rm -f "$list" "$list.tmp"
    fi
    echo "  $SCHEME default removed from $list"
    systemctl --user daemon-reload 2>/dev/null || true
}

case $action in
    list) manifest ;;
    install)
        manifest | while IFS=$'\t' read -r mode dest source how; do install_file "$mode" "$dest" "$source" "$how"; done
        refresh_caches
        set_default_handler
        next_steps
        ;;
    uninstall)
        manifest | while IFS=$'\t' read -r _ dest _ _; do
            if [ -e "$DESTDIR$dest" ] || [ -L "$DESTDIR$dest" ]; then
                rm -f "$DESTDIR$dest"
                echo "  removed $DESTDIR$dest"
            fi
        done
        # The documentation directory is ours alone: its emptied subdirectories go too.
        [ ! -d "$DESTDIR$DOCDIR" ] || find "$DESTDIR$DOCDIR" -depth -type d -empty -delete
        unset_default_handler
        refresh_caches
        ;;
    *) echo "usage: install.sh install|uninstall|list" >&2; exit 64 ;;
esac
