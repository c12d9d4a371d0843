#!/usr/bin/env bash
# Installs and uninstalls Pet Progress from one list of files (manifest, below), so uninstall removes
# exactly what install put there and nothing else — never the user's data. The same script serves
# three callers:
#   make install / make uninstall      from the repository (the shipped build, templates, data)
#   make deb, make dist                 `stage DIR` lays the files out as a PREFIX=/usr tree
#   the release tarball's ./install.sh  installs from that tree (bin/, share/, lib/, etc/ beside it)
#
#   install.sh install|uninstall|list [NAME=VALUE…]
#   install.sh stage DIR
# PREFIX (default /usr/local) decides every directory; each can be set on its own (BINDIR, DATADIR,
# MANDIR, DOCDIR, ICONDIR, DBUSINTERFACEDIR, DBUSSERVICEDIR, SYSTEMDUSERUNITDIR, APPLICATIONSDIR,
# SYSCONFDIR, AUTOSTARTDIR, BASHCOMPLETIONDIR, ZSHCOMPLETIONDIR, FISHCOMPLETIONDIR, PLASMOIDDIR), from the
# environment or as NAME=VALUE arguments; DESTDIR stages the install elsewhere.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
action=${1:-}
[ $# -eq 0 ] || shift
usage() {
    echo "usage: install.sh install|uninstall|list [PREFIX=DIR] [NAME=VALUE…] | install.sh stage DIR" >&2
    exit 64
}
case $action in install | uninstall | list | stage) ;; *) usage ;; esac
if [ "$action" = stage ]; then
    [ $# -eq 1 ] || usage
    stage_dir=$1
    shift
fi
names=" PREFIX DESTDIR BINDIR DATADIR MANDIR DOCDIR ICONDIR DBUSINTERFACEDIR DBUSSERVICEDIR SYSTEMDUSERUNITDIR
    APPLICATIONSDIR SYSCONFDIR AUTOSTARTDIR BASHCOMPLETIONDIR ZSHCOMPLETIONDIR FISHCOMPLETIONDIR PLASMOIDDIR "
for arg in "$@"; do
    name=${arg%%=*}
    [[ $arg == *=* && $names == *[[:space:]]"$name"[[:space:]]* ]] || { echo "install.sh: unknown setting '$arg'" >&2; usage; }
    export "$arg"
done

# From the release tarball the files sit beside this script, laid out by `stage`, with the list it
# wrote; from the repository they are the build's and the sources'.
if [ -f "$here/MANIFEST" ] && [ -x "$here/bin/petprogressd" ]; then
    tree=$here
else
    tree=
    cd "$here/.."
    DAEMON=${DAEMON:-.build-release/release/petprogressd}
    PETCTL=${PETCTL:-.build-release/release/petctl}
    GENERATED=${GENERATED:-.build-release/generated}
    LOCALE=${LOCALE:-.build-release/release/../share/locale}
fi
# The Plasma widget (contrib/plasma): its package, installed as a directory of that name.
PLASMOID=io.petprogress.plasmoid

PREFIX=${PREFIX:-/usr/local}
DESTDIR=${DESTDIR:-}
# The installed paths go into unit, activation and desktop files (ExecStart=, Exec=), quoted for
# each one's syntax where they hold a space or another character special to it. Six characters
# are spelled differently in each of the three syntaxes, or not at all (systemd takes no $ in an
# executable's name), and a control character in none: a path with one is refused.
for path in "$PREFIX" "$DESTDIR" ${BINDIR+"$BINDIR"}; do
    if [[ $path == *[[:cntrl:]\"\'\\\$%\`]* ]]; then
        echo "install.sh: the path '${path//[[:cntrl:]]/?}' holds a quote, a backslash, \$, %, \` or a control character, which the desktop and unit files cannot name alike; choose a directory without them (spaces are fine)" >&2
        exit 64
    fi
done
[[ $PREFIX == /* ]] || { echo "install.sh: PREFIX must be an absolute path, not '$PREFIX'" >&2; exit 64; }
BINDIR=${BINDIR:-$PREFIX/bin}
DATADIR=${DATADIR:-$PREFIX/share}
MANDIR=${MANDIR:-$DATADIR/man}
DOCDIR=${DOCDIR:-$DATADIR/doc/petprogress}
ICONDIR=${ICONDIR:-$DATADIR/icons/hicolor}
DBUSINTERFACEDIR=${DBUSINTERFACEDIR:-$DATADIR/dbus-1/interfaces}
BASHCOMPLETIONDIR=${BASHCOMPLETIONDIR:-$DATADIR/bash-completion/completions}
ZSHCOMPLETIONDIR=${ZSHCOMPLETIONDIR:-$DATADIR/zsh/site-functions}
FISHCOMPLETIONDIR=${FISHCOMPLETIONDIR:-$DATADIR/fish/vendor_completions.d}
# A prefix inside $HOME (PREFIX=$HOME/.local) is a per-user install: the files the session looks up
# go where it looks, in the user's own XDG directories — systemd --user does not search
# $PREFIX/lib/systemd/user there — and the handler becomes the default for petprogress://.
if [ -n "${HOME:-}" ] && [[ $PREFIX == "${HOME%/}"/* ]]; then
    USER_INSTALL=yes
    userdata=${XDG_DATA_HOME:-}
    [[ $userdata == /* ]] || userdata=$HOME/.local/share
    userconfig=${XDG_CONFIG_HOME:-}
    [[ $userconfig == /* ]] || userconfig=$HOME/.config
    DBUSSERVICEDIR=${DBUSSERVICEDIR:-$userdata/dbus-1/services}
    SYSTEMDUSERUNITDIR=${SYSTEMDUSERUNITDIR:-$userdata/systemd/user}
    APPLICATIONSDIR=${APPLICATIONSDIR:-$userdata/applications}
    AUTOSTARTDIR=${AUTOSTARTDIR:-$userconfig/autostart}
    MIMEAPPS=$userconfig/mimeapps.list
    # Where Plasma (and kpackagetool6 -i) keep a user's widgets.
    PLASMOIDDIR=${PLASMOIDDIR:-$userdata/plasma/plasmoids}
else
    USER_INSTALL=
    # petprogress(7) §8: nothing outside PREFIX. /usr's configuration lives in /etc (packaging); any
    # other prefix keeps it under itself: XDG autostart reads $PREFIX/etc/xdg only when
    # XDG_CONFIG_DIRS names it, so sessions without systemd install with SYSCONFDIR=/etc, or per user.
    if [ "$PREFIX" = /usr ]; then SYSCONFDIR=${SYSCONFDIR:-/etc}; else SYSCONFDIR=${SYSCONFDIR:-$PREFIX/etc}; fi
    DBUSSERVICEDIR=${DBUSSERVICEDIR:-$DATADIR/dbus-1/services}
    SYSTEMDUSERUNITDIR=${SYSTEMDUSERUNITDIR:-$PREFIX/lib/systemd/user}
    APPLICATIONSDIR=${APPLICATIONSDIR:-$DATADIR/applications}
    AUTOSTARTDIR=${AUTOSTARTDIR:-$SYSCONFDIR/xdg/autostart}
    PLASMOIDDIR=${PLASMOIDDIR:-$DATADIR/plasma/plasmoids}
fi
HANDLER=io.petprogress.PetProgress.desktop
SCHEME=x-scheme-handler/petprogress

# Each kind of file: the directory it is installed in, and where it sits in a staged tree (laid out
# as PREFIX=/usr, with /etc as etc/).
declare -A dirs=(
    [bin]=$BINDIR [locale]=$DATADIR/locale [metainfo]=$DATADIR/metainfo [shell]=$DATADIR/gnome-shell/extensions [man]=$MANDIR [doc]=$DOCDIR [icons]=$ICONDIR [interfaces]=$DBUSINTERFACEDIR
    [services]=$DBUSSERVICEDIR [units]=$SYSTEMDUSERUNITDIR [applications]=$APPLICATIONSDIR
    [autostart]=$AUTOSTARTDIR [bash]=$BASHCOMPLETIONDIR [zsh]=$ZSHCOMPLETIONDIR [fish]=$FISHCOMPLETIONDIR
    [plasmoids]=$PLASMOIDDIR
)
declare -A staged=(
    [bin]=bin [locale]=share/locale [metainfo]=share/metainfo [shell]=share/gnome-shell/extensions [man]=share/man [doc]=share/doc/petprogress [icons]=share/icons/hicolor
    [interfaces]=share/dbus-1/interfaces [services]=share/dbus-1/services [units]=lib/systemd/user
    [applications]=share/applications [autostart]=etc/xdg/autostart
    [bash]=share/bash-completion/completions [zsh]=share/zsh/site-functions
    [fish]=share/fish/vendor_completions.d [plasmoids]=share/plasma/plasmoids
)

# One line per installed file, tab-separated: mode, kind (above), path under the kind's directory,
# source in the repository, and how to copy it: copy; strip (a stripped binary); subst-systemd,
# subst-dbus, subst-desktop (@bindir@/NAME replaced by the installed path, quoted for that syntax);
# or link (a symbolic link to the source, a relative path; mode 0777 as links have).
manifest() {
    if [ -n "$tree" ]; then
        cat "$tree/MANIFEST"
        return
    fi
    entry 0755 bin petprogressd "$DAEMON" strip
    entry 0755 bin petctl "$PETCTL" strip
    entry 0644 interfaces io.petprogress.PetProgress1.xml dbus/io.petprogress.PetProgress1.xml
    entry 0644 services io.petprogress.PetProgress1.service dbus/io.petprogress.PetProgress1.service.in subst-dbus
    entry 0644 units petprogress.service systemd-user/petprogress.service.in subst-systemd
    # petctl's catalogues, where it looks for them: <its directory>/../share/locale.
    local po ll
    for po in po/*.po; do
        ll=$(basename "$po" .po)
        entry 0644 locale "$ll/LC_MESSAGES/petprogress.mo" "$LOCALE/$ll/LC_MESSAGES/petprogress.mo"
    done
    # The desktop entries, their Name, Comment, … translated (scripts/po.py desktop) and still
    # templates: @bindir@ is filled in here, for the tarball by its own install.
    entry 0644 applications "$HANDLER" "$GENERATED/desktop/$HANDLER.in" subst-desktop
    entry 0644 autostart petprogressd.desktop "$GENERATED/desktop/petprogressd.desktop.in" subst-desktop
    # The tray (petctl tray, petprogress(7) §8.1): on by default, by its unit where systemd runs the
    # graphical session (the .wants link enables it, as packages ship such links) and by the XDG
    # autostart entry where the session manager starts programs itself.
    entry 0644 units petprogress-tray.service systemd-user/petprogress-tray.service.in subst-systemd
    entry 0777 units graphical-session.target.wants/petprogress-tray.service ../petprogress-tray.service link
    entry 0644 autostart petprogress-tray.desktop "$GENERATED/desktop/petprogress-tray.desktop.in" subst-desktop
    # The names the daemon's icon_path and the desktop look for: petprogress-<base>.
    local svg base
    for svg in data/pets/pet_*.svg; do
        base=${svg#data/pets/pet_}
        base=${base%.svg}
        entry 0644 icons "scalable/apps/petprogress-$base.svg" "$svg"
        entry 0644 icons "512x512/apps/petprogress-$base.png" "data/pets/pet_$base.png"
        entry 0644 icons "symbolic/apps/petprogress-$base-symbolic.svg" "data/pets/symbolic/petprogress-$base-symbolic.svg"
    done
    entry 0644 bash petctl "$GENERATED/completions/petctl.bash"
    entry 0644 zsh _petctl "$GENERATED/completions/_petctl"
    entry 0644 fish petctl.fish "$GENERATED/completions/petctl.fish"
    entry 0644 man man1/petctl.1 "$GENERATED/man/petctl.1"
    entry 0644 man man1/petprogressd.1 docs/petprogressd.1
    entry 0644 man man7/petprogress.7 docs/petprogress.7
    # What software centres list (AppStream).
    entry 0644 metainfo io.petprogress.PetProgress.metainfo.xml data/io.petprogress.PetProgress.metainfo.xml
    # GNOME Shell's extension, for every user of the system (a user only enables it): its files and
    # its catalogues compiled (contrib/gnome-shell/po.py compile), as the zip holds them.
    local ext=contrib/gnome-shell/petprogress@petprogress.io uuid=petprogress@petprogress.io shellpo
    for file in "$ext"/*; do
        if [ -f "$file" ]; then entry 0644 shell "$uuid/${file##*/}" "$file"; fi
    done
    for shellpo in contrib/gnome-shell/po/*.po; do
        ll=$(basename "$shellpo" .po)
        entry 0644 shell "$uuid/locale/$ll/LC_MESSAGES/petprogress-shell.mo" \
            "$GENERATED/gnome-shell/locale/$ll/LC_MESSAGES/petprogress-shell.mo"
    done
    # The Plasma widget, where Plasma finds it (petprogress(7) §8), with its catalogues in the
    # package's contents/locale (contrib/plasma/po.py compile, by make).
    local file
    while IFS= read -r -d '' file; do
        entry 0644 plasmoids "${file#contrib/plasma/}" "$file"
    done < <(find "contrib/plasma/$PLASMOID" -type f -print0 | sort -z)
    for po in contrib/plasma/po/*.po; do
        ll=$(basename "$po" .po)
        entry 0644 plasmoids "$PLASMOID/contents/locale/$ll/LC_MESSAGES/plasma_applet_$PLASMOID.mo" \
            "$GENERATED/plasma/locale/$ll/LC_MESSAGES/plasma_applet_$PLASMOID.mo"
    done
    # The panel configurations, as documentation (not executable there: copy a script and make it
    # executable where you use it). GNOME Shell's extension and Plasma's widget are installed above,
    # and tests/ are the repository's, not the user's.
    while IFS= read -r -d '' file; do
        entry 0644 doc "${file#contrib/}" "$file"
    done < <(find contrib -mindepth 1 -type f ! -path 'contrib/gnome-shell/*' ! -path 'contrib/plasma/*' ! -path '*/tests/*' -print0 | sort -z)
}

entry() {
    printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "${5:-copy}"
}

# A path as one argument in SYNTAX (install refuses the characters each escapes differently):
#   systemd  ExecStart= (systemd.service(5), "Command lines"): "…"
#   dbus     a D-Bus activation file's Exec= (parsed as a shell would): '…'
#   desktop  a desktop entry's Exec= (Desktop Entry Specification, "The Exec key"): "…"
quote_word() {
    local syntax=$1 word=$2
    if [[ $word != *[[:space:]\;\&\|\<\>\~\*\?\#\(\)\[\]]* ]]; then
        printf '%s' "$word"
    elif [ "$syntax" = dbus ]; then
        printf "'%s'" "$word"
    else
        printf '"%s"' "$word"
    fi
}

# The template with every @bindir@/NAME replaced: substitute SYNTAX SOURCE.
substitute() {
    local syntax=$1 line head tail name
    while IFS= read -r line || [ -n "$line" ]; do
        while [[ $line == *@bindir@/* ]]; do
            head=${line%%@bindir@/*}
            tail=${line#*@bindir@/}
            name=${tail%%[[:space:]]*}
            line=$head$(quote_word "$syntax" "$BINDIR/$name")${tail#"$name"}
        done
        printf '%s\n' "$line"
    done <"$2"
}

install_file() {
    local mode=$1 dest=$DESTDIR$2 source=$3 how=$4
    if [ "$how" = link ]; then
        # A symbolic link, relative: to the file it names beside it.
        mkdir -p "$(dirname "$dest")"
        ln -sfn "$source" "$dest"
        return
    fi
    [ -f "$source" ] || { echo "install: $source is missing (make release completions man builds it)" >&2; return 1; }
    case $how in
        strip)
            # As Debian strips: the symbols, and the compiler's .comment and .note sections.
            # NOSTRIP=1: left whole for the packager's own strip (debian/rules: dh_strip, -dbgsym).
            install -D -m "$mode" "$source" "$dest"
            [ "${NOSTRIP:-}" = 1 ] || strip --remove-section=.comment --remove-section=.note "$dest"
            ;;
        subst-*)
            mkdir -p "$(dirname "$dest")"
            substitute "${how#subst-}" "$source" >"$dest.tmp"
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
    echo "KDE Plasma: right-click the panel, Add or Manage Widgets, and add \"Pet Progress\""
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
    local list=$MIMEAPPS
    [ -f "$list" ] && grep -qxF "$SCHEME=$HANDLER" "$list" || return 0
    grep -vxF "$SCHEME=$HANDLER" "$list" >"$list.tmp" || true
    if grep -qv '^\[.*\]$\|^$' "$list.tmp"; then
        cat "$list.tmp" >"$list" # Keeps the file's own mode and owner.
        rm -f "$list.tmp"
    else
        rm -f "$list" "$list.tmp"
    fi
    echo "  $SCHEME default removed from $list"
    systemctl --user daemon-reload 2>/dev/null || true
}

# Each manifest line as: mode, destination (without DESTDIR), source, how (the tree's are copies).
resolved() {
    manifest | while IFS=$'\t' read -r mode kind path source how; do
        if [ -n "$tree" ] && [ "$how" != link ]; then
            source=$tree/${staged[$kind]}/$path
            [ "$how" != strip ] || how=copy
        fi
        printf '%s\t%s\t%s\t%s\n' "$mode" "${dirs[$kind]}/$path" "$source" "$how"
    done
}

case $action in
    list) resolved ;;
    stage)
        # The tree keeps the templates as they are (the tarball's install substitutes its own
        # paths), the binaries stripped, and the list that installs it.
        [ -z "$tree" ] || { echo "install.sh: stage runs from the repository" >&2; exit 64; }
        manifest | while IFS=$'\t' read -r mode kind path source how; do
            case $how in strip | link) ;; *) how=copy ;; esac
            DESTDIR=$stage_dir install_file "$mode" "/${staged[$kind]}/$path" "$source" "$how" >/dev/null
        done
        manifest | sed 's/\tstrip$/\tcopy/' >"$stage_dir/MANIFEST"
        ;;
    install)
        resolved | while IFS=$'\t' read -r mode dest source how; do install_file "$mode" "$dest" "$source" "$how"; done
        refresh_caches
        set_default_handler
        next_steps
        ;;
    uninstall)
        resolved | while IFS=$'\t' read -r _ dest _ _; do
            if [ -e "$DESTDIR$dest" ] || [ -L "$DESTDIR$dest" ]; then
                rm -f "$DESTDIR$dest"
                echo "  removed $DESTDIR$dest"
            fi
        done
        # The .wants directory held only our link, where no other unit is enabled.
        rmdir "$DESTDIR$SYSTEMDUSERUNITDIR/graphical-session.target.wants" 2>/dev/null || true
        # The documentation directories the manifest's files were in (and those between them and
        # DOCDIR), deepest first, each only when now empty: never another directory, even an
        # empty one, when DOCDIR names a shared place.
        doc=${dirs[doc]}
        resolved | while IFS=$'\t' read -r _ dest _ _; do
            case $dest in "$doc"/*) ;; *) continue ;; esac
            dir=${dest%/*}
            while :; do
                printf '%s\n' "$dir"
                [ "$dir" != "$doc" ] && [ "${#dir}" -gt "${#doc}" ] || break
                dir=${dir%/*}
            done
        done | sort -u | awk '{ print length($0) "\t" $0 }' | sort -rn | cut -f2- | while IFS= read -r dir; do
            rmdir "$DESTDIR$dir" 2>/dev/null || true
        done
        # The widget's package directory and the extension's are ours alone: their emptied
        # subdirectories go too.
        [ ! -d "$DESTDIR$PLASMOIDDIR/$PLASMOID" ] || find "$DESTDIR$PLASMOIDDIR/$PLASMOID" -depth -type d -empty -delete
        [ ! -d "$DESTDIR${dirs[shell]}/petprogress@petprogress.io" ] ||
            find "$DESTDIR${dirs[shell]}/petprogress@petprogress.io" -depth -type d -empty -delete
        unset_default_handler
        refresh_caches
        ;;
esac
