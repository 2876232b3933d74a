#!/bin/sh
# Instructions per updateView() of case 4 under callgrind, ours and the baseline in the same run:
# the @ViewModel observers served by the main loop's flush, against one DispatchSource
# user-data-add source per observer on the main queue, drained by the same loop. Unlike ns per
# update, no machine load moves these counts (memory stalls are not counted either: read them
# beside the wall-clock row of `make bench`). `make bench-callgrind` runs it after the case-5
# comparison.
#
# The runner is the user-package build (Benchmarks/: a path dependency, release, no flags), run
# `--quick coalescing` with LOOP_BENCH_ROW=updateView (the two rows that need no other observer):
# one warm-up and 5 runs per side, each 3 iterations of 100 observers, so 1,800 updates per side.
# - ours: the inclusive count of FlushCoordinator.runFlushIfPending (the whole pass: taking the
#   batch, each observer's update coordinator, updateView()).
# - baseline: the inclusive count of _dispatch_main_queue_callback_4CF (the main queue's drain:
#   each source's invoke and handler, which calls updateView()), minus the baseline's posted
#   closures that make the changes (they run in the same drain).
# An argument names a runner to profile instead of building one (a copy is stripped of debug
# info first: valgrind 3.19 cannot read Swift 6.3's).
set -eu
SWIFT=${SWIFT:-swift}
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "callgrind-coalescing: valgrind is missing (apt-get install valgrind)" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ $# -ge 1 ]; then
    cp "$1" "$work/user"
else
    (cd Benchmarks && LOOPMVVM_TOOLS=1 $SWIFT build -c release --product loop-bench-user >&2)
    cp Benchmarks/.build/release/loop-bench-user "$work/user"
fi
strip --strip-debug "$work/user"

updates=1800  # per side: (1 warm-up + 5 runs) x 3 iterations x 100 observers (--quick)
LOOP_BENCH_ROW=updateView valgrind --tool=callgrind --callgrind-out-file="$work/out" \
    "$work/user" --quick coalescing >/dev/null 2>&1
callgrind_annotate --inclusive=yes --tree=calling --threshold=100 "$work/out" 2>/dev/null \
    | $SWIFT demangle --simplified \
    | awk -v n="$updates" '
        function count(line) { split(line, f, " "); gsub(",", "", f[1]); return f[1] + 0 }
        /^ *[0-9,]+ .*\*  \?\?\?:FlushCoordinator\.runFlushIfPending\(\) \[/ && !ours { ours = count($0) }
        /^ *[0-9,]+ .*\*  \?\?\?:_dispatch_main_queue_callback_4CF \[/ && !drain { drain = count($0) }
        # The block of the libdispatch block thunk: its callees that are the posted change closures.
        /\*  \?\?\?:thunk for @escaping @callee_guaranteed @Sendable \(\) -> \(\) \[/ { inThunk = 1; next }
        /^$/ { inThunk = 0 }
        inThunk && />   \?\?\?:partial apply for closure #1 in static Coalescing\.iterate/ { posted += count($0) }
        END {
            if (!ours || !drain) { print "callgrind-coalescing: the profile lacks the flush or the main-queue drain" > "/dev/stderr"; exit 1 }
            o = ours / n; b = (drain - posted) / n
            printf "case 4, instructions per updateView(): ours %.0f, DispatchSource handler %.0f, ratio %.2fx (target <= 1.2x: %s)\n", o, b, o / b, o / b <= 1.2 ? "met" : "MISSED"
        }'
