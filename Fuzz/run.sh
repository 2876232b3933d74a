#!/bin/sh
# Builds the libFuzzer targets (Fuzz/Package.swift) and runs each of them:
#   Fuzz/run.sh 60      what `make fuzz` runs: 60 s of open-ended exploration per target, from a
#                       random seed, growing the corpus kept in Fuzz/.build/corpus/<target>
#   Fuzz/run.sh smoke   what `make fuzz-smoke` (part of `make test`) runs: every seed and
#                       regression replayed, then a fixed number of mutations from a fixed seed
#                       (-seed, -runs), from an empty scratch corpus, with Swift's hashing made
#                       deterministic: the same inputs every time, so CI cannot fail by chance,
#                       and the same output (one line per target) on every run
# Seeds: Fuzz/Seeds/, the test fixtures, and ../shared/corpus beside the clone when present
# (SHARED_CORPUS overrides). A crash stops the run with exit 1 and leaves the input in
# Fuzz/crashes/: move it to Fuzz/Regressions/<target>/ (FuzzRegressionTests replays every file
# there in `swift test`, and every run here starts from it), fix, and re-run. The regressions
# are seeds too.
set -eu
mode=${1:-60}
# Mutations per target after the replay in smoke mode (a few seconds each on a quiet machine),
# and the seed they start from.
smoke_runs=${FUZZ_SMOKE_RUNS:-5000}
smoke_seed=1
fuzz=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$fuzz")
shared=${SHARED_CORPUS:-$root/../shared/corpus}
work=$fuzz/.build/corpus
fixtures=$root/Tests/PodcastFeedsTests/Fixtures
SWIFT=${SWIFT:-swift}

cd "$fuzz"
mkdir -p "$work" "$fuzz/crashes"
if [ "$mode" = smoke ]; then
  # Quiet: the build's own lines (times, step counts) differ from run to run.
  if ! $SWIFT build -c debug -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library >"$work/build.log" 2>&1; then
    grep -v "warning: Cannot export local symbol" "$work/build.log"
    echo "fuzz: the fuzz targets did not build"
    exit 1
  fi
else
  $SWIFT build -c debug -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library 2>&1 \
    | grep -v "warning: Cannot export local symbol" || true
fi
bin=$($SWIFT build -c debug -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library --show-bin-path)

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
  if [ "$mode" = smoke ]; then
    # A fresh scratch corpus first (libFuzzer writes what it finds into the first folder), so
    # one run's findings never change the next run's inputs.
    corpus=$work/smoke-$target
    rm -rf "$corpus"; mkdir -p "$corpus"
    seeds=$(find "$@" -type f | wc -l)
    # libFuzzer replays every seed first; -runs counts those runs too.
    # What else would make two runs differ: -use_cmp=0, since libFuzzer's mutations otherwise
    # draw on the operands of recent comparisons, and some of those are addresses (a fixed seed
    # alone gave 422 to 448 new inputs on the same 3,000 runs of the feed target); no allocator
    # purge and no corpus reload, which libFuzzer does once a second (so by the clock).
    set -- -seed="$smoke_seed" -runs=$((seeds + smoke_runs)) -use_cmp=0 -purge_allocator_interval=-1 -reload=0 \
      "$corpus" "$@"
    what="$seeds seeds and regressions replayed, then $smoke_runs mutations from seed $smoke_seed"
  else
    mkdir -p "$work/$target"
    set -- -max_total_time="$mode" "$work/$target" "$@"
    what="${mode}s"
  fi
  # SWIFT_BACKTRACE off: the Swift runtime's crash handler trips ASan; libFuzzer reports instead.
  # SWIFT_DETERMINISTIC_HASHING: the same hash seeds, so the same code paths for the same input.
  if ! SWIFT_BACKTRACE=enable=no SWIFT_DETERMINISTIC_HASHING=1 ASAN_OPTIONS=detect_leaks=0:abort_on_error=0 \
      "$bin/fuzz-$target" -timeout=10 -rss_limit_mb=2048 -max_len="$max_len" -detect_leaks=0 \
      -print_final_stats=1 -artifact_prefix="$fuzz/crashes/$target-" "$@" >"$work/$target.log" 2>&1; then
    status=1
    tail -n 40 "$work/$target.log"
    echo "fuzz: $target FAILED ($what); the input is in Fuzz/crashes/ (replay: $bin/fuzz-$target Fuzz/crashes/<file>)"
  elif [ "$mode" = smoke ]; then
    echo "fuzz: $target ok ($what)"
  else
    echo "fuzz: $target for $what: $(grep -E "^stat::number_of_executed_units|^Done" "$work/$target.log" | tr '\n' ' ')"
  fi
}
run date 256 "$work/seeds-date"
run duration 128 "$work/seeds-duration"
# shellcheck disable=SC2086
run feed 65536 "$feed_seeds" $shared_feeds
run opml 16384 "$opml_seeds"
run html 8192 "$html_seeds"
exit $status
