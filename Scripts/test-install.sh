#!/bin/sh
# `make test-install`: the release binary (BINARY) runs without the Swift toolchain and
# `make install` / `make uninstall` put in place, then take away, exactly the listed files.
# 1. Every shared library the binary loads is a file of an installed Debian package, and none
#    is the toolchain's (libswiftCore, libFoundation, libdispatch, ...).
# 2. install into a scratch DESTDIR with PREFIX=/usr: exactly Scripts/install.sh's list (with the
#    man pages and completions when MANUAL names `make manual`'s folder), with the units'
#    ExecStart pointed at /usr/bin/podcast-watch.
# 3. The installed binary prints its version and runs `demo` on the installed sample feeds, with
#    an empty environment and (where a mount namespace can be made) the toolchain hidden.
# 4. uninstall leaves an empty tree.
set -eu
cd "$(dirname "$0")/.."
: "${BINARY:?BINARY names the release binary}"
fail() { echo "test-install: FAILED: $*" >&2; exit 1; }

scratch=$(mktemp -d "${TMPDIR:-/tmp}/podcast-watch-install.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

# 1. Libraries.
ldd "$BINARY" >"$scratch/ldd" || fail "ldd $BINARY"
if grep -q "not found" "$scratch/ldd"; then cat "$scratch/ldd"; fail "a library is missing"; fi
if grep -Eiq "swift|libFoundation|libdispatch|BlocksRuntime|libXCTest" "$scratch/ldd"; then
    cat "$scratch/ldd"
    fail "the binary loads a toolchain library"
fi
libraries=0
for lib in $(awk '$2 == "=>" { print $3 }' "$scratch/ldd"); do
    # A merged /usr: dpkg may know the file under /lib or under /usr/lib.
    dpkg -S "$lib" >/dev/null 2>&1 || dpkg -S "/usr$lib" >/dev/null 2>&1 ||
        dpkg -S "$(readlink -f "$lib")" >/dev/null 2>&1 || fail "$lib belongs to no Debian package"
    libraries=$((libraries + 1))
done
[ "$libraries" -ge 5 ] || fail "ldd listed only $libraries libraries"
echo "test-install: $libraries shared libraries, each from a Debian package, none from the toolchain"

# 2. Install.
root=$scratch/root
BINARY=$BINARY DESTDIR=$root PREFIX=/usr Scripts/install.sh install >"$scratch/install.log"
PREFIX=/usr Scripts/install.sh list | sort >"$scratch/expected"
(cd "$root" && find . -type f | sed 's#^\.##' | sort) >"$scratch/installed"
diff -u "$scratch/expected" "$scratch/installed" || fail "installed files differ from the list"
grep -q "^ExecStart=/usr/bin/podcast-watch --state \${STATE_DIRECTORY} run --json$" \
    "$root/usr/lib/systemd/system/podcast-watch.service" || fail "system unit's ExecStart"
grep -q "^ExecStart=/usr/bin/podcast-watch run --json$" \
    "$root/usr/lib/systemd/user/podcast-watch.service" || fail "user unit's ExecStart"
[ -x "$root/usr/bin/podcast-watch" ] || fail "binary not executable"
echo "test-install: $(wc -l <"$scratch/installed") files installed under PREFIX=/usr"

# 3. Run it as a machine without the toolchain would: no environment, toolchain hidden.
toolchain=$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")
run_bare() {
    if [ "$(id -u)" = 0 ] && unshare -m true 2>/dev/null; then
        unshare -m sh -c 'mount -t tmpfs none "$1" && shift && exec "$@"' sh "$toolchain" \
            env -i PATH=/usr/bin:/bin HOME="$scratch/home" "$@"
    else
        env -i PATH=/usr/bin:/bin HOME="$scratch/home" "$@"
    fi
}
if [ "$(id -u)" = 0 ] && unshare -m true 2>/dev/null; then
    echo "test-install: running with $toolchain hidden"
else
    echo "test-install: cannot hide $toolchain (needs root and mount namespaces); running with an empty environment"
fi
mkdir -p "$scratch/home"
version=$(run_bare "$root/usr/bin/podcast-watch" --version) || fail "--version failed"
[ "$version" = "podcast-watch $(sed -n 's/.*static let version = "\(.*\)"/\1/p' Sources/PodcastCommandLine/Options/UsageText.swift)" ] ||
    fail "--version printed '$version'"
run_bare "$root/usr/bin/podcast-watch" demo --json >"$scratch/demo.json" || fail "demo failed"
samples="file://$root/usr/share/podcast-watch/samples/"
feeds=$(ls Sources/podcast-watch/SampleFeeds | wc -l)
[ "$(grep -c '"event":"feed_updated"' "$scratch/demo.json")" = "$feeds" ] || fail "demo: not $feeds feed_updated lines"
[ "$(grep -c '"event":"new_episode"' "$scratch/demo.json")" = "$((feeds * 3))" ] || fail "demo: not $((feeds * 3)) new_episode lines"
[ "$(grep -c "\"feed_url\":\"$samples" "$scratch/demo.json")" = "$((feeds * 4))" ] ||
    fail "demo did not read the installed samples ($samples)"
echo "test-install: '$version', and demo polled the $feeds installed sample feeds"

# 4. Uninstall.
# As `make uninstall` runs it: without MANUAL (the man pages and completions go all the same).
MANUAL= DESTDIR=$root PREFIX=/usr Scripts/install.sh uninstall >"$scratch/uninstall.log"
left=$(cd "$root" && find . -type f)
[ -z "$left" ] || fail "uninstall left: $left"
echo "test-install: uninstall removed every file"
