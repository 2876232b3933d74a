#!/bin/sh
# `make test-manual` (part of `make test`): the generated man pages and completions in MANUAL
# (from `make manual`) are clean and work in their shells.
# 1. mandoc -T lint -W all (style included) reports nothing on either page.
# 2. Each completion is loaded in its shell and asked, as a user's tab would: bash through its
#    completion function, fish through `complete -C`, zsh through compinit and a real completion
#    widget in a pseudo-terminal (zpty). Feed numbers and URLs come from a state with two
#    feeds, read by the podcast-watch found in BIN (the build's).
set -eu
cd "$(dirname "$0")/.."
: "${MANUAL:?MANUAL names the folder make manual wrote}"
: "${BIN:?BIN names the folder with a built podcast-watch}"
fail() { echo "test-manual: FAILED: $*" >&2; exit 1; }
scratch=$(mktemp -d "${TMPDIR:-/tmp}/podcast-watch-manual.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

# 1. The man pages.
for page in podcast-watch.1 podcast-watch.conf.5; do
    out=$(mandoc -T lint -W all "$MANUAL/$page" 2>&1) || true
    [ -z "$out" ] || fail "mandoc -T lint $page: $out"
    mandoc -T utf8 "$MANUAL/$page" >/dev/null || fail "mandoc cannot render $page"
done
echo "test-manual: mandoc -T lint -W all is clean on both pages"

# A state with two feeds, found through the config file as a user's would be.
export HOME="$scratch/home" XDG_CONFIG_HOME="$scratch/home/.config" XDG_STATE_HOME="$scratch/home/.local/state"
export PATH="$BIN:$PATH"
mkdir -p "$HOME"
for feed in tidepool-radio.xml the-slow-build.xml; do
    podcast-watch add "$PWD/Sources/podcast-watch/SampleFeeds/$feed" >/dev/null
done

# 2a. bash: set the words as readline would and call the function `complete` names.
bash_complete() {
    bash --norc -c '
        source "$1"; shift
        COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
        _podcast_watch
        if ((${#COMPREPLY[@]})); then printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " "; fi
    ' bash "$MANUAL/podcast-watch.bash" "$@"
}
expect_bash() {
    expected=$1; shift
    got=$(bash_complete "$@")
    [ "$got" = "$expected" ] || fail "bash: '$*' completed to '$got', expected '$expected'"
}
expect_bash "add " podcast-watch ad
expect_bash "delete-download demo disable download downloads " podcast-watch d
expect_bash "--hook --hook-log --hook-on --hook-retries --hook-timeout " podcast-watch run --hook
expect_bash "downloaded new_episode " podcast-watch run --hook-on ""
expect_bash "default " podcast-watch set --keep ""
expect_bash "1 2 " podcast-watch remove --id ""
expect_bash "1 2 " podcast-watch --state "$XDG_STATE_HOME/podcast-watch" disable --id ""
expect_bash "--json " podcast-watch --state /tmp list --j
expect_bash "" podcast-watch add --title ""
expect_bash "--help --state --version -h " podcast-watch export -
# Feed URLs: readline splits a word at ':' (COMP_WORDBREAKS), so the words are given split and
# the line whole, as bash sets them; each URL is offered without what precedes the current piece.
bash_complete_line() {
    line=$1; shift
    bash --norc -c '
        source "$1"; COMP_LINE=$2; COMP_POINT=${#2}; shift 2
        COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
        _podcast_watch
        if ((${#COMPREPLY[@]})); then printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " "; fi
    ' bash "$MANUAL/podcast-watch.bash" "$line" "$@"
}
samples="$PWD/Sources/podcast-watch/SampleFeeds"
got=$(bash_complete_line "podcast-watch remove " podcast-watch remove "")
[ "$got" = "file://$samples/the-slow-build.xml file://$samples/tidepool-radio.xml " ] \
    || fail "bash: 'remove ' completed to '$got', expected the two feed URLs"
got=$(bash_complete_line "podcast-watch enable file://$samples/ti" podcast-watch enable file : "//$samples/ti")
[ "$got" = "//$samples/tidepool-radio.xml " ] || fail "bash: 'enable file://…/ti' completed to '$got'"
echo "test-manual: bash completes commands, options, values, feed numbers and feed URLs"

# 2b. fish: `complete -C` prints what a tab would offer (candidate, tab, description).
fish_complete() {
    fish --no-config -c "source '$MANUAL/podcast-watch.fish'; complete -C '$1'" | cut -f1 | sort | tr '\n' ' '
}
expect_fish() {
    got=$(fish_complete "$2")
    [ "$got" = "$1" ] || fail "fish: '$2' completed to '$got', expected '$1'"
}
expect_fish "add " "podcast-watch ad"
expect_fish "--download-jobs --download-max-size --download-name --download-per-host --download-rate " \
    "podcast-watch run --download-"
expect_fish "downloaded new_episode " "podcast-watch run --hook-on "
expect_fish "1 2 " "podcast-watch enable --id "
expect_fish "--help --json --samples --state --version " "podcast-watch demo --"
# Feed URLs beside files (fish also offers the files after a 'file:' prefix).
got=$(fish_complete "podcast-watch disable file:")
for url in "file://$samples/the-slow-build.xml" "file://$samples/tidepool-radio.xml"; do
    case " $got" in *" $url "*) ;; *) fail "fish: 'disable file:' did not offer $url: $got" ;; esac
done
echo "test-manual: fish completes commands, options, values, feed numbers and feed URLs"

# 2c. zsh: compinit must register the function for podcast-watch, then a completion widget run
# in a pseudo-terminal lists what a tab offers.
mkdir -p "$scratch/zfunc"
cp "$MANUAL/_podcast-watch" "$scratch/zfunc/"
zsh -f -c "fpath=('$scratch/zfunc' \$fpath); autoload -Uz compinit; compinit -u -d '$scratch/zcompdump'
    [[ \$_comps[podcast-watch] == _podcast-watch ]]" || fail "zsh: compinit does not register _podcast-watch"
# What a tab shows after typing $1: zsh -i in a pseudo-terminal, its screen output read back.
cat >"$scratch/zpty.zsh" <<'EOF_ZSH'
zmodload zsh/zpty
zpty z zsh -f -i
zpty -w z "PROMPT='> '; fpath=($1 \$fpath); autoload -Uz compinit; compinit -u -d $2"
zpty -w -n z "$3"$'\t'
out=""
# Read until the expected text shows (escape sequences and CRs removed), at most 3 s.
setopt extendedglob
for i in {1..150}; do
    sleep 0.02
    while zpty -r -t z chunk; do out+=$chunk; done
    shown=${${out//$'\r'/}//$'\e'\[[0-9;?]#[A-Za-z]/}
    [[ $shown == *"$4"* ]] && break
done
zpty -d z
print -r -- "${out##*compinit -u -d}"
EOF_ZSH
expect_zsh() {
    got=$(zsh -f "$scratch/zpty.zsh" "$scratch/zfunc" "$scratch/zcompdump" "$2" "$1" | tr -d '\r' | sed 's/\x1b\[[0-9;?]*[A-Za-z]//g')
    case $got in
    *"$1"*) ;;
    *) fail "zsh: '$2<TAB>' did not show '$1': $got" ;;
    esac
}
expect_zsh "podcast-watch add" "podcast-watch ad"
expect_zsh "podcast-watch run --hook-on" "podcast-watch run --hook-o"
expect_zsh "1  2" "podcast-watch remove --id "
# (the line typed ends in "ti": what zsh inserts is the rest of the URL)
expect_zsh "depool-radio.xml" "podcast-watch set file://$PWD/Sources/podcast-watch/SampleFeeds/ti"
echo "test-manual: zsh completes commands, options, feed numbers and feed URLs"
