#!/bin/sh
# Installs or uninstalls podcast-watch: `make install` / `make uninstall` call this, and the
# Debian package stages its files with it. One list of files serves both directions, so
# uninstall removes exactly what install put in place.
#
# Usage: Scripts/install.sh install|uninstall|list
# Environment: BINARY (the release binary; install only), MANUAL (the folder `make manual`
# generated the man pages and completions into; optional), DESTDIR, PREFIX (default /usr/local),
# SYSTEMDDIR (default PREFIX/lib/systemd), STRIP (default -s: install strips the binary; set it
# empty to keep the symbols).
set -eu
cd "$(dirname "$0")/.."

action=${1:?usage: Scripts/install.sh install|uninstall|list}
DESTDIR=${DESTDIR:-}
PREFIX=${PREFIX:-/usr/local}
SYSTEMDDIR=${SYSTEMDDIR:-$PREFIX/lib/systemd}
STRIP=${STRIP--s}
MANUAL=${MANUAL:-}
bindir=$PREFIX/bin
datadir=$PREFIX/share
docdir=$datadir/doc/podcast-watch

# One line per installed file: mode, destination, source. A source "unit:KIND" is the unit from
# contrib/systemd/KIND with its ExecStart pointed at the installed binary.
manifest() {
    echo "755 $bindir/podcast-watch binary"
    for feed in Sources/podcast-watch/SampleFeeds/*; do
        echo "644 $datadir/podcast-watch/samples/${feed##*/} $feed"
    done
    echo "644 $SYSTEMDDIR/system/podcast-watch.service unit:system"
    echo "644 $SYSTEMDDIR/user/podcast-watch.service unit:user"
    echo "644 $docdir/examples/config contrib/podcast-watch.conf"
    # Uninstall removes them whether or not MANUAL is set (make uninstall does not build them).
    if [ -n "$MANUAL" ] || [ "$action" = uninstall ]; then
        echo "644 $datadir/man/man1/podcast-watch.1 ${MANUAL:-.}/podcast-watch.1"
        echo "644 $datadir/man/man5/podcast-watch.conf.5 ${MANUAL:-.}/podcast-watch.conf.5"
        echo "644 $datadir/bash-completion/completions/podcast-watch ${MANUAL:-.}/podcast-watch.bash"
        echo "644 $datadir/zsh/vendor-completions/_podcast-watch ${MANUAL:-.}/_podcast-watch"
        echo "644 $datadir/fish/vendor_completions.d/podcast-watch.fish ${MANUAL:-.}/podcast-watch.fish"
    fi
}

case $action in
list)
    manifest | while read -r _ dest _; do echo "$dest"; done
    ;;
install)
    : "${BINARY:?BINARY names the release binary}"
    manifest | while read -r mode dest source; do
        target=$DESTDIR$dest
        mkdir -p "$(dirname "$target")"
        case $source in
        binary)
            # shellcheck disable=SC2086 # STRIP is one flag or nothing
            install $STRIP -m "$mode" "$BINARY" "$target"
            ;;
        unit:*)
            sed -e "s#^ExecStart=/usr/local/bin/podcast-watch #ExecStart=$bindir/podcast-watch #" \
                -e "s#^ExecStart=%h/.local/bin/podcast-watch #ExecStart=$bindir/podcast-watch #" \
                "contrib/systemd/${source#unit:}/podcast-watch.service" >"$target.tmp"
            chmod "$mode" "$target.tmp" && mv "$target.tmp" "$target"
            ;;
        *) install -m "$mode" "$source" "$target" ;;
        esac
        echo "install: $dest"
    done
    ;;
uninstall)
    manifest | while read -r _ dest _; do
        if [ -e "$DESTDIR$dest" ] || [ -L "$DESTDIR$dest" ]; then
            rm -f "$DESTDIR$dest" && echo "uninstall: $dest"
        fi
    done
    # Our own folders, once empty; shared ones (bin, man1, completions) stay.
    for dir in "$datadir/podcast-watch/samples" "$datadir/podcast-watch" "$docdir/examples" "$docdir"; do
        rmdir "$DESTDIR$dir" 2>/dev/null || true
    done
    ;;
*)
    echo "usage: Scripts/install.sh install|uninstall|list" >&2
    exit 2
    ;;
esac
