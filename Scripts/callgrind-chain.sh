#!/bin/sh
# Instructions per value of case 5 (the subject→map→filter→removeDuplicates→sink chain, and one
# @Published set) under callgrind, for the build a user gets (Benchmarks/: a path dependency,
# release, no flags) and for the LOOPMVVM_CMO=1 build, with the ratio of the two (the target:
# at most 1.2x). Unlike ns/value, no machine load moves these counts. `make bench-callgrind`.
#
# Each binary runs `--quick --subject-only` (one warm-up and 5 runs of 200,000 values or sets);
# the figure is the inclusive count of `PublisherChain.publisherChain` (the whole chain: the
# subject's send to the sink's closure) or of `PublishedStorage.set` (the @Published setter:
# objectWillChange, $x, store) divided by the values sent. Binaries are stripped of debug info (valgrind 3.19 cannot read
# Swift 6.3's), keeping their symbols.
set -eu
SWIFT=${SWIFT:-swift}
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "callgrind-chain: valgrind is missing (apt-get install valgrind)" >&2; exit 1; }

(cd Benchmarks && LOOPMVVM_TOOLS=1 $SWIFT build -c release --product loop-bench-user >&2)
LOOPMVVM_CMO=1 $SWIFT build -c release --product loop-bench --scratch-path .build-cmo >&2

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp Benchmarks/.build/release/loop-bench-user "$work/user"
cp .build-cmo/release/loop-bench "$work/cmo"
strip --strip-debug "$work/user" "$work/cmo"

values=1200000  # (1 warm-up + 5 runs) x 200,000: the --quick size of both rows

# count BUILD ROW FUNCTION: inclusive instructions per value of FUNCTION (itself, specialised
# or not; not a closure in it) in the run of ROW.
count() {
    out="$work/$1.$2.out"
    LOOP_BENCH_ROW="$2" valgrind --tool=callgrind --callgrind-out-file="$out" \
        "$work/$1" --quick --subject-only chain >/dev/null 2>&1
    callgrind_annotate --inclusive=yes --threshold=100 "$out" 2>/dev/null \
        | $SWIFT demangle --simplified \
        | awk -v f="$3" -v n="$values" '
            (index($0, "???:" f " ") || index($0, "???:specialized " f " ")) && !done {
                gsub(",", "", $1); printf "%.0f", $1 / n; done = 1
            }'
}

# report WHAT ROW FUNCTION TARGET
report() {
    user=$(count user "$2" "$3")
    cmo=$(count cmo "$2" "$3")
    awk -v what="$1" -v u="$user" -v c="$cmo" -v t="$4" 'BEGIN {
        verdict = t == "" ? "" : sprintf(" (target <= %sx: %s)", t, u / c <= t ? "met" : "MISSED")
        printf "case 5, instructions per %s: no flag %s, LOOPMVVM_CMO=1 %s, ratio %.2fx%s\n", what, u, c, u / c, verdict
    }'
}

report "chain value" subject "static PublisherChain.publisherChain(_:)" 1.2
report "@Published set" Published "PublishedStorage.set(_:)" ""
