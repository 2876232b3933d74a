#!/bin/sh
# Runs `podcast-watch show FILE --json` with two builds over every feed file of a corpus and
# compares what each prints (stdout byte for byte, stderr and the exit status too). Used to check
# that a change which should not alter behaviour (a refactoring, a module split) does not.
#
# Usage: Scripts/compare-show-json.sh BEFORE-BINARY AFTER-BINARY [CORPUS]
# CORPUS defaults to $PODCASTKIT_CORPUS, else ../shared/corpus. Exits 1 on any difference, naming
# each file that differs; prints the number of files compared.
set -u
before=$1
after=$2
corpus=${3:-${PODCASTKIT_CORPUS:-../shared/corpus}}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/home"
compared=0
differing=0
# Feed documents only: not the expectation files, licences, notes or tables.
find "$corpus" -type f ! -name '*.expect.json' ! -name 'LICENSE*' ! -name '*.md' ! -name '*.tsv' \
  ! -path '*/podcastparser/*.json' | LC_ALL=C sort >"$work/files"
while IFS= read -r file; do
  for side in before after; do
    if [ "$side" = before ]; then bin=$before; else bin=$after; fi
    HOME="$work/home" XDG_STATE_HOME="$work/home/state" "$bin" show "$file" --json \
      >"$work/$side.out" 2>"$work/$side.err" </dev/null
    echo "$?" >"$work/$side.status"
  done
  compared=$((compared + 1))
  for part in out err status; do
    if ! cmp -s "$work/before.$part" "$work/after.$part"; then
      echo "differs ($part): $file"
      differing=$((differing + 1))
      break
    fi
  done
done <"$work/files"
echo "compare-show-json: $compared files compared, $differing differ"
[ "$differing" -eq 0 ]
