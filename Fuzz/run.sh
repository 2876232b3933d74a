#!/bin/sh
# Builds the libFuzzer targets (Fuzz/Package.swift) and runs each for SECONDS (default 60):
#   Fuzz/run.sh 60      what `make fuzz` runs
#   Fuzz/run.sh 5       what `make test` runs (a smoke run, so the targets never rot)
# Seeds: Fuzz/Seeds/, the test fixtures, and ../shared/corpus beside the clone when present
# (SHARED_CORPUS overrides). New inputs accumulate in Fuzz/.build/corpus/<target>. A crash
# stops the run with exit 1 and leaves the input in Fuzz/crashes/: move it to
# Fuzz/Regressions/<target>/ (FuzzRegressionTests replays every file there in `swift test`),
# fix, and re-run. The regressions are seeds too.
set -eu
seconds=${1:-60}
fuzz=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$fuzz")
shared=${SHARED_CORPUS:-$root/../shared/corpus}
work=$fuzz/.build/corpus
fixtures=$root/Tests/PodcastFeedsTests/Fixtures
SWIFT=${SWIFT:-swift}

cd "$fuzz"
$SWIFT build -c debug -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library 2>&1 \
  | grep -v "warning: Cannot export local symbol" || true
bin=$($SWIFT build -c debug -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library --show-bin-path)
mkdir -p "$work" "$fuzz/crashes"

# One seed file per row of a corpus table (its first column).
table_seeds() {
  dir=$work/seeds-$1
  rm -rf "$dir"; mkdir -p "$dir"
  cp "$fuzz/Seeds/$1/"* "$dir/"
  cp "$fuzz/Regressions/$1/"* "$dir/"
  if [ -f "$shared/$2" ]; then
    tail -n +2 "$shared/$2" | cut -f1 | awk -v dir="$dir" '{ f = dir "/row" NR; printf "%s", $0 > f; close(f) }'
  fi
}
table_seeds date dates.tsv
table_seeds duration durations.tsv
html_seeds=$work/seeds-html
rm -rf "$html_seeds"; mkdir -p "$html_seeds"
cp "$fuzz/Seeds/html/"* "$fuzz/Regressions/html/"* "$html_seeds/"
feed_seeds=$work/seeds-feed
rm -rf "$feed_seeds"; mkdir -p "$feed_seeds"
cp "$fixtures/"*.rss "$fixtures/"*.xml "$fixtures/"*.rdf "$fixtures/"*.html "$fuzz/Regressions/feed/"* "$feed_seeds/"
opml_seeds=$work/seeds-opml
rm -rf "$opml_seeds"; mkdir -p "$opml_seeds"
cp "$fuzz/Seeds/opml/"* "$fuzz/Regressions/opml/"* "$fixtures/"*.opml "$opml_seeds/"
shared_feeds=""
for sub in feedparser podcastparser feedkit; do
  [ -d "$shared/$sub" ] && shared_feeds="$shared_feeds $shared/$sub"
done

status=0
run() {
  target=$1; max_len=$2; shift 2
  mkdir -p "$work/$target"
  echo "fuzz: $target for ${seconds}s"
  # SWIFT_BACKTRACE off: the Swift runtime's crash handler trips ASan; libFuzzer reports instead.
  if ! SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0:abort_on_error=0 "$bin/fuzz-$target" \
      -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len="$max_len" -detect_leaks=0 \
      -print_final_stats=1 -artifact_prefix="$fuzz/crashes/$target-" \
      "$work/$target" "$@" >"$work/$target.log" 2>&1; then
    status=1
    tail -n 40 "$work/$target.log"
    echo "fuzz: $target FAILED; the input is in Fuzz/crashes/ (replay: $bin/fuzz-$target Fuzz/crashes/<file>)"
  else
    grep -E "^stat::number_of_executed_units|^Done" "$work/$target.log" | tr '\n' ' '; echo
  fi
}
run date 256 "$work/seeds-date"
run duration 128 "$work/seeds-duration"
# shellcheck disable=SC2086
run feed 65536 "$feed_seeds" $shared_feeds
run opml 16384 "$opml_seeds"
run html 8192 "$html_seeds"
exit $status
