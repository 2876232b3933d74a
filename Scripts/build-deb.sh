#!/bin/sh
# `make deb`: the Debian package of podcast-watch, built with debhelper from the files in
# contrib/debian around a binary built beforehand (BINARY, from `make release`) and the man pages
# and completions (MANUAL, from `make manual`; optional). Depends is computed by dh_shlibdeps
# from the binary's libraries, the conffile list by dh_installdeb, the systemd snippets by
# dh_installsystemd. Writes .build/deb/podcast-watch_VERSION_ARCH.deb and prints its path last.
# Environment: BINARY, MANUAL, DEB_MAINTAINER (default: the last commit's author).
set -eu
cd "$(dirname "$0")/.."
: "${BINARY:?BINARY names the release binary}"
binary=$(readlink -f "$BINARY")
manual=${MANUAL:+$(readlink -f "$MANUAL")}
source=$(pwd)
version=$(sed -n 's/.*static let version = "\(.*\)"/\1/p' Sources/PodcastCommandLine/Options/UsageText.swift)
[ -n "$version" ] || { echo "build-deb: no version in UsageText.swift" >&2; exit 1; }
maintainer=${DEB_MAINTAINER:-$(git log -1 --format='%an <%ae>' 2>/dev/null || echo "podcast-watch builder <root@localhost>")}
# The last commit's date, so that the same commit gives the same changelog (and package).
date=$(git log -1 --format=%cD 2>/dev/null || date -R)

work=.build/deb
rm -rf "$work"
mkdir -p "$work/podcast-watch-$version"
tree=$work/podcast-watch-$version
cp -r contrib/debian "$tree/debian"
sed "s|@MAINTAINER@|$maintainer|" contrib/debian/control >"$tree/debian/control"
cat >"$tree/debian/changelog" <<CHANGELOG
podcast-watch ($version) unstable; urgency=medium

  * Built from the LoopMVVM repository, commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown).
    See /usr/share/doc/podcast-watch for what changed.

 -- $maintainer  $date
CHANGELOG

(
    cd "$tree"
    PODCAST_WATCH_SOURCE=$source PODCAST_WATCH_BINARY=$binary PODCAST_WATCH_MANUAL=$manual \
        dpkg-buildpackage --build=binary --unsigned-source --unsigned-changes --no-pre-clean >../build.log 2>&1
) || { tail -40 "$work/build.log"; echo "build-deb: dpkg-buildpackage failed (log: $work/build.log)" >&2; exit 1; }
deb=$(ls "$work"/podcast-watch_"$version"_*.deb)
echo "$deb"
