#!/bin/sh
# The part of Scripts/test-deb.sh that runs inside the throwaway overlay of / (as root, chrooted):
# install /tmp/podcast-watch.deb, use it as a user and as the service would, and purge it.
set -eu
fail() { echo "test-deb (installed): FAILED: $*" >&2; exit 1; }
version=$(dpkg-deb -f /tmp/podcast-watch.deb Version)

dpkg -i /tmp/podcast-watch.deb >/tmp/dpkg.log 2>&1 || { cat /tmp/dpkg.log; fail "dpkg -i"; }

# The system user, its home (the state directory, 0700) and the enabled service.
entry=$(getent passwd podcast-watch) || fail "no user podcast-watch"
uid=$(echo "$entry" | cut -d: -f3)
[ "$uid" -lt 1000 ] || fail "podcast-watch is not a system user ($entry)"
[ "$(echo "$entry" | cut -d: -f6-7)" = "/var/lib/podcast-watch:/usr/sbin/nologin" ] || fail "user entry: $entry"
[ "$(stat -c '%U %a' /var/lib/podcast-watch)" = "podcast-watch 700" ] || fail "/var/lib/podcast-watch: $(stat -c '%U %a' /var/lib/podcast-watch)"
[ -L /etc/systemd/system/multi-user.target.wants/podcast-watch.service ] || fail "the service is not enabled"
[ ! -e /etc/systemd/user/default.target.wants/podcast-watch.service ] || fail "the user unit was enabled for everyone"

# The commands a newcomer runs first.
[ "$(podcast-watch --version)" = "podcast-watch $version" ] || fail "--version: $(podcast-watch --version)"
runuser -u podcast-watch -- podcast-watch demo --json >/tmp/demo.json || fail "demo"
[ "$(grep -c '"event":"new_episode".*"feed_url":"file:///usr/share/podcast-watch/samples/' /tmp/demo.json)" = 9 ] ||
    fail "demo: not 9 new episodes from /usr/share/podcast-watch/samples"
cd /var/lib/podcast-watch
service() { runuser -u podcast-watch -- env XDG_CONFIG_HOME=/etc podcast-watch --state /var/lib/podcast-watch "$@"; }
service add /usr/share/podcast-watch/samples/tidepool-radio.xml >/dev/null || fail "add as the service user"
[ "$(service list --json | grep -c '"url":"file:///usr/share/podcast-watch/samples/tidepool-radio.xml"')" = 1 ] ||
    fail "list does not show the added feed"

# The README's quick start from `dpkg -i` on, as written (Scripts/test-readme.py --deb-commands
# put it in /tmp/readme.sh, its placeholder feed a sample): we are root already, and without a
# running systemd (a chroot) `systemctl` can only check that the unit it names is installed.
if [ -f /tmp/readme.sh ]; then
    sudo() { "$@"; }
    systemctl() {
        if [ -d /run/systemd/system ]; then command systemctl "$@"; else [ -f "/lib/systemd/system/$2.service" ]; fi
    }
    # Rendered from the file it finds (`-l`): man-db caches no formatted page then, which
    # the purge would leave behind in /var/cache/man.
    man() { if command -v man >/dev/null; then MANPAGER=cat command man -l "$(command man -w "$@")" >/dev/null; fi; }
    while IFS= read -r line; do
        eval "$line" >>/tmp/readme.out 2>&1 || { cat /tmp/readme.out; fail "the README's '$line'"; }
    done </tmp/readme.sh
    unset -f sudo systemctl man
    [ "$(service list --json | grep -c '"url":"file:///usr/share/podcast-watch/samples/the-slow-build.xml"')" = 1 ] ||
        fail "the README's add did not subscribe: $(cat /tmp/readme.out)"
    echo "test-deb (installed): the README's quick start ran: $(tr '\n' ';' </tmp/readme.sh)"
fi

# The shipped config turns the dashboard on, on loopback; run the service's command line as
# systemd would, on a free port instead (0: 8080 may be taken here), and its API must answer.
[ "$(grep -v '^#' /etc/podcast-watch/config | grep .)" = "http = 127.0.0.1:8080" ] ||
    fail "the shipped config does not set exactly 'http = 127.0.0.1:8080'"
cp /etc/podcast-watch/config /tmp/config.orig
sed -i 's/^http = 127.0.0.1:8080$/http = 127.0.0.1:0/' /etc/podcast-watch/config
exec_start=$(sed -n 's/^ExecStart=//p' /lib/systemd/system/podcast-watch.service | sed 's/\${STATE_DIRECTORY}/\/var\/lib\/podcast-watch/')
# setpriv execs (runuser would stay in between and not pass SIGTERM on).
setpriv --reuid=podcast-watch --regid=podcast-watch --init-groups env XDG_CONFIG_HOME=/etc HOME=/var/lib/podcast-watch \
    $exec_start >/tmp/run.out 2>/tmp/run.err &
daemon=$!
url=""
for _ in $(seq 1 100); do
    url=$(sed -n 's#.*dashboard at \(http://127\.0\.0\.1:[0-9]*/\).*#\1#p' /tmp/run.err)
    [ -n "$url" ] && break
    sleep 0.1
done
[ -n "$url" ] || { kill "$daemon"; cat /tmp/run.err; fail "the service printed no dashboard address"; }
curl -sf "${url}api/feeds" >/tmp/feeds.json || { kill "$daemon"; fail "GET ${url}api/feeds"; }
kill -TERM "$daemon" && wait "$daemon" || fail "run did not stop cleanly on SIGTERM"
grep -q '"url":"file:///usr/share/podcast-watch/samples/tidepool-radio.xml"' /tmp/feeds.json ||
    fail "the dashboard's API does not list the feed: $(cat /tmp/feeds.json)"

# Man pages and completions where man, bash, zsh and fish look.
if command -v man >/dev/null; then
    man -w podcast-watch >/dev/null || fail "man podcast-watch finds no page"
    man -w 5 podcast-watch.conf >/dev/null || fail "man 5 podcast-watch.conf finds no page"
fi
# bash-completion's loader finds the completion by the command's name (as a tab in a new shell).
if [ -f /usr/share/bash-completion/bash_completion ]; then
    got=$(bash --norc -c '. /usr/share/bash-completion/bash_completion; __load_completion podcast-watch
        COMP_WORDS=(podcast-watch ad); COMP_CWORD=1; _podcast_watch; echo "${COMPREPLY[*]}"') || true
    [ "$got" = "add" ] || fail "bash-completion did not load podcast-watch's completion (got '$got')"
fi
[ -f /usr/share/zsh/vendor-completions/_podcast-watch ] || fail "no zsh completion"
if command -v fish >/dev/null; then
    got=$(fish -c 'complete -C "podcast-watch ad"' | cut -f1)
    [ "$got" = "add" ] || fail "fish did not load podcast-watch's completion (got '$got')"
fi

# Both units verify clean, now that the binary they name exists.
if command -v systemd-analyze >/dev/null; then
    out=$(systemd-analyze verify --man=no /lib/systemd/system/podcast-watch.service 2>&1) ||
        fail "systemd-analyze verify (system unit): $out"
    [ -z "$out" ] || fail "systemd-analyze verify (system unit): $out"
    mkdir -p /tmp/xdg-runtime
    out=$(XDG_RUNTIME_DIR=/tmp/xdg-runtime systemd-analyze --user verify --man=no /lib/systemd/user/podcast-watch.service 2>&1) ||
        fail "systemd-analyze verify (user unit): $out"
    [ -z "$out" ] || fail "systemd-analyze verify (user unit): $out"
fi

# A conffile the administrator changed survives a reinstall (dpkg keeps it, asking nothing).
cp /tmp/config.orig /etc/podcast-watch/config
echo "interval = 2h" >>/etc/podcast-watch/config
cp /etc/podcast-watch/config /tmp/config.changed
dpkg -i --force-confold /tmp/podcast-watch.deb >/tmp/dpkg.log 2>&1 || { cat /tmp/dpkg.log; fail "reinstall"; }
cmp -s /etc/podcast-watch/config /tmp/config.changed || fail "the changed config was replaced on reinstall"

# Remove keeps the config; purge takes it, the state and the unit symlinks.
cd /
dpkg -r podcast-watch >/tmp/dpkg.log 2>&1 || { cat /tmp/dpkg.log; fail "dpkg -r"; }
[ ! -e /usr/bin/podcast-watch ] || fail "dpkg -r left the binary"
[ -f /etc/podcast-watch/config ] || fail "dpkg -r removed the conffile"
dpkg --purge podcast-watch >/tmp/dpkg.log 2>&1 || { cat /tmp/dpkg.log; fail "dpkg --purge"; }
[ ! -e /etc/podcast-watch ] || fail "purge left /etc/podcast-watch"
[ ! -e /var/lib/podcast-watch ] || fail "purge left /var/lib/podcast-watch"
getent passwd podcast-watch >/dev/null || fail "purge removed the system user (policy: keep it)"
echo "test-deb: installed, used (demo, add, list, run with the dashboard), verified, reinstalled and purged"
