import Foundation
import ViewModelKit

/// Case 5b: the combining operators, each beside a hand-written closure
/// baseline doing the same work, and each held against the case-5 chain measured in the same
/// run (target: merge and flatMap at most 2x the chain, combineLatest of 3 and zip of 2 too).
enum OperatorChains {
    static func run(_ settings: RunSettings) -> [Row] {
        let values = settings.size(4_000_000, quick: 100_000)
        let runs = settings.runs
        // LOOP_BENCH_ROW=word: only the rows whose name contains it (for profiling one row).
        let only = ProcessInfo.processInfo.environment["LOOP_BENCH_ROW"]
        let chain = { PublisherChain.publisherChain(values) }
        let cases: [(String, String, () -> Double, () -> Double)] = [
            (
                "5b merge of 4 subjects→sink", "closures: 4 sources calling one sink",
                { merge4(values) }, { closureMerge4(values) }
            ),
            (
                "5b [a,b,c,d].publisher.flatMap { $0 }→sink", "closures: 4 sources calling one sink",
                { flatMapSubjects(values) }, { closureMerge4(values) }
            ),
            (
                "5b flatMap(maxPublishers: .unlimited) { Just($0) }→sink", "closure calling a closure",
                { flatMapJust(values) }, { closureForward(values) }
            ),
            (
                "5b combineLatest of 3→sink", "closures keeping the latest of 3",
                { combineLatest3(values) }, { closureCombineLatest3(values) }
            ),
            (
                "5b zip of 2→sink", "closures pairing 2 queues",
                { zip2(values) }, { closureZip2(values) }
            ),
        ]
        var rows: [Row] = []
        for (name, baselineName, ours, floor) in cases where only.map({ name.contains($0) }) ?? true {
            // The chain is measured in turn with each row (not once, before all of them): on a
            // loaded machine the load drifts between rows, and a chain median taken minutes
            // earlier put flatMap at 3.3x in one run and 1.3x in its fastest.
            let (value, baseline, reference) = measureWithReference(runs: runs, ours, floor, chain)
            let limit = 2 * reference.median
            rows.append(
                Row(
                    name: name, unit: "ns/value", better: .lower, value: value,
                    baselineName: baselineName, baseline: baseline,
                    target: String(format: "<= 2x the case-5 chain (%.0f ns)", limit), met: value.median <= limit,
                    note: "\(values) values; chain \(Int(reference.median)) ns/value, measured in turn with this row"))
        }
        return rows
    }

    // MARK: Ours

    static func merge4(_ count: Int) -> Double {
        let subjects = (0..<4).map { _ in PassthroughSubject<Int, Never>() }
        let token = subjects[0].merge(with: subjects[1], subjects[2], subjects[3]).sink { Work.consume($0) }
        return timed(count, subjects, token)
    }

    static func flatMapSubjects(_ count: Int) -> Double {
        let subjects = (0..<4).map { _ in PassthroughSubject<Int, Never>() }
        let token = subjects.publisher.flatMap { $0 }.sink { Work.consume($0) }
        return timed(count, subjects, token)
    }

    static func flatMapJust(_ count: Int) -> Double {
        let subject = PassthroughSubject<Int, Never>()
        let token = subject.flatMap(maxPublishers: .unlimited) { Just($0) }.sink { Work.consume($0) }
        // One subject, sent to as the case-5 chain's loop sends (not through `timed`'s array:
        // its indexing and the retain/release of the element per value, ~150 instructions
        // under callgrind, are not flatMap's cost).
        let start = nowNanoseconds()
        for value in 0..<count { subject.send(value) }
        let elapsed = nowNanoseconds() - start
        token.cancel()
        return Double(elapsed) / Double(count)
    }

    static func combineLatest3(_ count: Int) -> Double {
        let subjects = (0..<3).map { _ in PassthroughSubject<Int, Never>() }
        let token = subjects[0].combineLatest(subjects[1], subjects[2]).sink { Work.consume($0.0 &+ $0.1 &+ $0.2) }
        subjects[1].send(0)
        subjects[2].send(0)
        return timed(count, subjects, token)
    }

    static func zip2(_ count: Int) -> Double {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let token = a.zip(b).sink { Work.consume($0.0 &+ $0.1) }
        let start = nowNanoseconds()
        for value in 0..<count / 2 {
            a.send(value)
            b.send(value)
        }
        let elapsed = nowNanoseconds() - start
        token.cancel()
        return Double(elapsed) / Double(count / 2 * 2)
    }

    /// Sends `count` values round-robin into `subjects`; ns per value.
    private static func timed(_ count: Int, _ subjects: [PassthroughSubject<Int, Never>], _ token: AnyCancellable)
        -> Double
    {
        let n = subjects.count
        let start = nowNanoseconds()
        var index = 0
        for value in 0..<count {
            subjects[index].send(value)
            index += 1
            if index == n { index = 0 }
        }
        let elapsed = nowNanoseconds() - start
        token.cancel()
        return Double(elapsed) / Double(count)
    }

    // MARK: Baselines

    static func closureMerge4(_ count: Int) -> Double {
        let sources = ClosureFanIn.make(4)
        return timedClosures(count, sources)
    }

    static func closureForward(_ count: Int) -> Double {
        timedClosures(count, ClosureFanIn.make(1))
    }

    static func closureCombineLatest3(_ count: Int) -> Double {
        let latest = ClosureLatest.make()
        latest.sources[1](0)
        latest.sources[2](0)
        return timedClosures(count, latest.sources)
    }

    static func closureZip2(_ count: Int) -> Double {
        let zip = ClosureZip.make()
        let a = zip.sources[0]
        let b = zip.sources[1]
        let start = nowNanoseconds()
        for value in 0..<count / 2 {
            a(value)
            b(value)
        }
        let elapsed = nowNanoseconds() - start
        withExtendedLifetime(zip) {}
        return Double(elapsed) / Double(count / 2 * 2)
    }

    private static func timedClosures(_ count: Int, _ sources: [(Int) -> Void]) -> Double {
        let n = sources.count
        let start = nowNanoseconds()
        var index = 0
        for value in 0..<count {
            sources[index](value)
            index += 1
            if index == n { index = 0 }
        }
        let elapsed = nowNanoseconds() - start
        return Double(elapsed) / Double(count)
    }
}

/// Baseline: `n` source closures that each call one sink closure (merge's work without the
/// operator). Built behind `@inline(never)` so every call stays indirect.
enum ClosureFanIn {
    @inline(never)
    static func make(_ n: Int) -> [(Int) -> Void] {
        let sink: (Int) -> Void = { Work.consume($0) }
        return (0..<n).map { _ in { value in sink(value) } }
    }
}

/// Baseline: three sources storing their latest value and, once all have one, calling a sink
/// with the three (combineLatest's work without the operator).
final class ClosureLatest {
    private var latest: (Int?, Int?, Int?) = (nil, nil, nil)
    private(set) var sources: [(Int) -> Void] = []

    @inline(never)
    static func make() -> ClosureLatest { ClosureLatest() }

    @inline(never)
    private init() {
        let sink: (Int, Int, Int) -> Void = { Work.consume($0 &+ $1 &+ $2) }
        let emit: () -> Void = { [unowned self] in
            if let a = latest.0, let b = latest.1, let c = latest.2 { sink(a, b, c) }
        }
        sources = [
            { [unowned self] in
                latest.0 = $0
                emit()
            },
            { [unowned self] in
                latest.1 = $0
                emit()
            },
            { [unowned self] in
                latest.2 = $0
                emit()
            },
        ]
    }
}

/// Baseline: two sources queueing values and calling a sink with each pair (zip's work without
/// the operator).
final class ClosureZip {
    private var queues: ([Int], [Int]) = ([], [])
    private(set) var sources: [(Int) -> Void] = []

    @inline(never)
    static func make() -> ClosureZip { ClosureZip() }

    @inline(never)
    private init() {
        let sink: (Int, Int) -> Void = { Work.consume($0 &+ $1) }
        let emit: () -> Void = { [unowned self] in
            while !queues.0.isEmpty, !queues.1.isEmpty {
                sink(queues.0.removeFirst(), queues.1.removeFirst())
            }
        }
        sources = [
            { [unowned self] in
                queues.0.append($0)
                emit()
            },
            { [unowned self] in
                queues.1.append($0)
                emit()
            },
        ]
    }
}
