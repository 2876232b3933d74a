import CLibeventBaseline

/// Which way a figure improves.
enum Better: String {
    case lower, higher
}

/// Median and spread of one figure over the measured runs (the warm-up run is not among them).
struct Stats {
    var samples: [Double]

    var median: Double {
        let sorted = samples.sorted()
        guard !sorted.isEmpty else { return .nan }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    var min: Double { samples.min() ?? .nan }
    var max: Double { samples.max() ?? .nan }
}

/// One line of the table / one JSON object.
struct Row {
    var name: String
    var unit: String
    var better: Better
    var value: Stats
    var baselineName: String?
    var baseline: Stats?
    /// The target for this row, in words, and whether the median meets it (nil: no target).
    var target: String?
    var met: Bool?
    var note: String?

    /// value / baseline, medians. For "lower is better" units above 1 means slower than the
    /// baseline; for "higher is better" units below 1 means slower.
    var ratio: Double? {
        guard let baseline, baseline.median != 0 else { return nil }
        return value.median / baseline.median
    }
}

/// Run-count settings shared by every case.
struct RunSettings {
    var quick: Bool
    /// Measured runs per figure (the issue asks for at least 5).
    var runs: Int { quick ? 5 : 7 }

    /// `full` normally, `small` with --quick.
    func size(_ full: Int, quick small: Int) -> Int { quick ? small : full }
}

/// Runs `subject` and `baseline` alternately (one warm-up each, then `runs` measured runs), so
/// slow drift of a noisy machine hits both sides alike.
func measurePair(
    runs: Int, _ subject: () -> Double, _ baseline: () -> Double
) -> (Stats, Stats) {
    if subjectOnly {
        return (measure(runs: runs, subject), Stats(samples: []))
    }
    _ = subject()
    _ = baseline()
    var a: [Double] = []
    var b: [Double] = []
    for _ in 0..<runs {
        a.append(subject())
        b.append(baseline())
    }
    return (Stats(samples: a), Stats(samples: b))
}

/// `measurePair` plus a reference workload run in turn with both (subject, baseline, reference
/// each run), for rows whose target is a ratio to another row: the three see the same load.
/// `--subject-only` runs the subject alone (the other two come back empty).
func measureWithReference(
    runs: Int, _ subject: () -> Double, _ baseline: () -> Double, _ reference: () -> Double
) -> (Stats, Stats, Stats) {
    if subjectOnly {
        return (measure(runs: runs, subject), Stats(samples: []), Stats(samples: [0]))
    }
    _ = subject()
    _ = baseline()
    _ = reference()
    var a: [Double] = []
    var b: [Double] = []
    var c: [Double] = []
    for _ in 0..<runs {
        a.append(subject())
        b.append(baseline())
        c.append(reference())
    }
    return (Stats(samples: a), Stats(samples: b), Stats(samples: c))
}

/// `--subject-only`: measurePair skips the baselines, so a profiler (valgrind --tool=callgrind)
/// sees only our code paths.
nonisolated(unsafe) var subjectOnly = false

/// One warm-up, then `runs` measured runs.
func measure(runs: Int, _ body: () -> Double) -> Stats {
    _ = body()
    return Stats(samples: (0..<runs).map { _ in body() })
}

/// CLOCK_MONOTONIC, nanoseconds.
@inline(__always)
func nowNanoseconds() -> UInt64 {
    clb_monotonic_ns()
}

// MARK: Blackhole

/// Results fed here stay observable (a global written through a non-inlined function and
/// printed at exit), so the optimiser cannot delete the work that produced them.
nonisolated(unsafe) var blackholeAccumulator: Int = 0

@inline(never)
func blackhole(_ value: Int) {
    blackholeAccumulator &+= value
}
