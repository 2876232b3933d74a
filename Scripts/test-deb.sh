#!/bin/sh
# `make test-deb` (part of `make test`): the Debian package DEB (from `make deb`), inspected, then
# installed, used and purged in a throwaway copy of this machine.
# 1. dpkg-deb -I: Depends names the Debian package of every library the binary links directly
#    (dh_shlibdeps computed it), and adduser; the only conffile is /etc/podcast-watch/config.
# 2. dpkg-deb -c: exactly the expected files.
# 3. lintian: no error and no warning (docs/PACKAGING.md lists the informational tags).
# 4. In an overlay of / (a private mount namespace; every write lands in a tmpfs that vanishes):
#    dpkg -i; the system user and its state directory; the service enabled; --version, demo,
#    add/list as the service user; the README's quick start commands; run with the dashboard on and its API answering; man pages
#    and completions in their places; systemd-analyze verify of both units; a changed conffile
#    kept across a reinstall; dpkg --purge, after which nothing of the package is left but the
#    system user (kept, as Debian policy advises). Needs root and mount namespaces (or sudo); a
#    machine without either skips step 4 and says so, unless REQUIRE_INSTALL=1 (CI sets it).
set -eu
cd "$(dirname "$0")/.."
: "${DEB:?DEB names the package}"
fail() { echo "test-deb: FAILED: $*" >&2; exit 1; }
deb=$(readlink -f "$DEB")
scratch=$(mktemp -d "${TMPDIR:-/tmp}/podcast-watch-deb.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

# 1. Control fields.
dpkg-deb -f "$deb" Depends >"$scratch/depends"
dpkg-deb -x "$deb" "$scratch/extract"
dpkg-deb -e "$deb" "$scratch/control"
grep -q "adduser" "$scratch/depends" || fail "Depends lacks adduser: $(cat "$scratch/depends")"
for lib in $(objdump -p "$scratch/extract/usr/bin/podcast-watch" | awk '$1 == "NEEDED" { print $2 }'); do
    path=$(ldconfig -p | awk -v lib="$lib" '$1 == lib { print $NF; exit }')
    [ -n "$path" ] || fail "no $lib on this machine"
    owner=$( (dpkg -S "$path" 2>/dev/null || dpkg -S "/usr$path" 2>/dev/null || dpkg -S "$(readlink -f "$path")") |
        head -1 | cut -d: -f1)
    tr ',' '\n' <"$scratch/depends" | awk '{ print $1 }' | grep -Fxq "$owner" || fail "Depends lacks $owner (for $lib): $(cat "$scratch/depends")"
done
[ "$(cat "$scratch/control/conffiles")" = "/etc/podcast-watch/config" ] || fail "conffiles: $(cat "$scratch/control/conffiles")"
echo "test-deb: Depends: $(cat "$scratch/depends")"

# 2. Files.
dpkg-deb -c "$deb" | awk '{ print $6 }' | sed 's#^\./#/#; s#/$##' | grep -v '^$' | sort >"$scratch/files"
sort >"$scratch/expected" <<'EOF'
/etc
/etc/podcast-watch
/etc/podcast-watch/config
/lib
/lib/systemd
/lib/systemd/system
/lib/systemd/system/podcast-watch.service
/lib/systemd/user
/lib/systemd/user/podcast-watch.service
/usr
/usr/bin
/usr/bin/podcast-watch
/usr/share
/usr/share/bash-completion
/usr/share/bash-completion/completions
/usr/share/bash-completion/completions/podcast-watch
/usr/share/doc
/usr/share/doc/podcast-watch
/usr/share/doc/podcast-watch/changelog.gz
/usr/share/doc/podcast-watch/copyright
/usr/share/doc/podcast-watch/examples
/usr/share/doc/podcast-watch/examples/config
/usr/share/fish
/usr/share/fish/vendor_completions.d
/usr/share/fish/vendor_completions.d/podcast-watch.fish
/usr/share/man
/usr/share/man/man1
/usr/share/man/man1/podcast-watch.1.gz
/usr/share/man/man5
/usr/share/man/man5/podcast-watch.conf.5.gz
/usr/share/podcast-watch
/usr/share/podcast-watch/samples
/usr/share/zsh
/usr/share/zsh/vendor-completions
/usr/share/zsh/vendor-completions/_podcast-watch
EOF
for feed in Sources/podcast-watch/SampleFeeds/*; do echo "/usr/share/podcast-watch/samples/${feed##*/}"; done >>"$scratch/expected"
sort -o "$scratch/expected" "$scratch/expected"
diff -u "$scratch/expected" "$scratch/files" || fail "the package's files differ from the expected list"
echo "test-deb: $(wc -l <"$scratch/files") paths, as expected"

# 3. lintian.
lintian --fail-on error,warning "$deb" >"$scratch/lintian" 2>&1 || { cat "$scratch/lintian"; fail "lintian reported errors or warnings"; }
grep -E '^(E|W): ' "$scratch/lintian" && fail "lintian reported errors or warnings"
echo "test-deb: lintian reports no error and no warning"

# 4. Install, use and purge in a throwaway overlay of /.
# The README's Debian quick start, from `dpkg -i` on (run inside, with the placeholder feed a sample).
python3 Scripts/test-readme.py --deb-commands >"$scratch/readme.sh" || fail "cannot read the README's quick start"
SUDO=
[ "$(id -u)" = 0 ] || SUDO=sudo
if ! $SUDO unshare -m true 2>/dev/null; then
    if [ "${REQUIRE_INSTALL:-0}" != 1 ]; then
        echo "test-deb: SKIPPED the install test: it needs root (or sudo) and mount namespaces"
        exit 0
    fi
    # CI's machine is thrown away after the run: install on it for real, and check afterwards
    # that no file of the package is left (without the overlay, other changes cannot be seen).
    echo "test-deb: no mount namespace here; installing on this machine itself (REQUIRE_INSTALL=1)"
    $SUDO cp "$deb" /tmp/podcast-watch.deb
    $SUDO cp "$scratch/readme.sh" /tmp/readme.sh
    $SUDO sh -eu Scripts/test-deb-installed.sh || fail "the install test failed"
    $SUDO rm -f /tmp/readme.sh
    left=""
    for path in $(cat "$scratch/files") /etc/podcast-watch; do
        # Shared folders (/usr/bin, /etc) stay; the package's own files and folder must not.
        if [ "$path" = /etc/podcast-watch ] || [ ! -d "$path" ]; then
            if [ -e "$path" ] || [ -L "$path" ]; then left="$left $path"; fi
        fi
    done
    [ -z "$left" ] || fail "after purge, left on the machine:$left"
    echo "test-deb: purge left none of the package's files"
    exit 0
fi
cp Scripts/test-deb-installed.sh "$scratch/inside.sh"
$SUDO unshare -m sh -eu -c '
    root=$1/overlay; deb=$2
    mkdir -p "$root" && mount -t tmpfs tmpfs "$root"
    mkdir -p "$root/upper" "$root/work" "$root/merged"
    mount -t overlay overlay -o "lowerdir=/,upperdir=$root/upper,workdir=$root/work" "$root/merged"
    mount --rbind /dev "$root/merged/dev" && mount -t proc proc "$root/merged/proc"
    mount -t tmpfs tmpfs "$root/merged/run" && mount -t tmpfs tmpfs "$root/merged/tmp"
    cp "$deb" "$root/merged/tmp/podcast-watch.deb" && cp "$1/inside.sh" "$root/merged/tmp/inside.sh"
    cp "$1/readme.sh" "$root/merged/tmp/readme.sh"
    chroot "$root/merged" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root sh -eu /tmp/inside.sh
    # What the package left on the filesystem: every change is in the upper layer. Allowed:
    # the dpkg database and log, the system user in the account files (and their lock), and
    # the man-db index its trigger rebuilt.
    (cd "$root/upper" && find . ! -type d ! -type c | sed "s#^\.##" | grep -Ev \
        "^/var/lib/dpkg/|^/var/log/(dpkg|alternatives)\.log$|^/etc/(passwd|group|shadow|gshadow)-?$|^/etc/\.pwd\.lock$|^/var/cache/man/") \
        >"$1/left" || true
    (cd "$root/upper" && find . | sed "s#^\.##" | grep -v "^/var/lib/dpkg/" | grep podcast-watch) >>"$1/left" || true
' sh "$scratch" "$deb" || fail "the install test failed"
[ ! -s "$scratch/left" ] || fail "after purge, left on the machine: $(cat "$scratch/left")"
echo "test-deb: purge left nothing but the system user"
