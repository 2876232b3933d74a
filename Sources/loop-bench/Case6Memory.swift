import CLibeventBaseline
import ViewModelKit

/// Case 6: bytes per live subscription, 100k sinks on one subject. The target's figure is the RSS
/// growth; the C heap's own count (glibc mallinfo2) is reported beside it because freed memory
/// stays resident, which makes repeated RSS readings drift. Baseline: the same number of
/// closures (each capturing one object) kept in an array, the least a subscription can cost.
enum Memory {
    static func run(_ settings: RunSettings) -> [Row] {
        let count = settings.size(100_000, quick: 10_000)
        // RSS first, on a heap that has not yet seen this many subscriptions.
        clb_malloc_trim()
        let rss = measurePair(runs: settings.runs, { sinks(count, rss: true) }, { closures(count, rss: true) })
        let heap = measurePair(runs: settings.runs, { sinks(count, rss: false) }, { closures(count, rss: false) })
        return [
            Row(
                name: "6 subscription memory (RSS)", unit: "bytes/sub", better: .lower, value: rss.0,
                baselineName: "closure in an array (RSS)", baseline: rss.1,
                target: "<= 250 bytes", met: rss.0.median <= 250,
                note:
                    "\(count) sinks on one PassthroughSubject; RSS after minus before (malloc_trim before each run)"
            ),
            Row(
                name: "6 subscription memory (heap)", unit: "bytes/sub", better: .lower, value: heap.0,
                baselineName: "closure in an array (heap)", baseline: heap.1,
                target: "<= 250 bytes", met: heap.0.median <= 250,
                note: "glibc mallinfo2 in-use bytes after minus before"),
        ]
    }

    static func reading(_ rss: Bool) -> Int {
        rss ? clb_rss_bytes() : Int(clb_heap_in_use())
    }

    static func sinks(_ count: Int, rss: Bool) -> Double {
        clb_malloc_trim()
        let subject = PassthroughSubject<Int, Never>()
        var held: [AnyCancellable] = []
        held.reserveCapacity(count)
        let before = reading(rss)
        for _ in 0..<count {
            held.append(subject.sink { Work.consume($0) })
        }
        let after = reading(rss)
        subject.send(1)  // every sink runs once: they are live
        blackhole(held.count)
        held.removeAll()
        return Double(after - before) / Double(count)
    }

    final class Target {
        var hits = 0
    }

    static func closures(_ count: Int, rss: Bool) -> Double {
        clb_malloc_trim()
        var held: [() -> Void] = []
        held.reserveCapacity(count)
        let before = reading(rss)
        for _ in 0..<count {
            let target = Target()
            held.append {
                target.hits += 1
                Work.consume(target.hits)
            }
        }
        let after = reading(rss)
        for closure in held { closure() }
        blackhole(held.count)
        held.removeAll()
        return Double(after - before) / Double(count)
    }
}
