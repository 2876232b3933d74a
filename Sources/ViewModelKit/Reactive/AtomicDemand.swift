import Synchronization

// Outstanding demand as a lock-free counter, so a subject's hot path takes no mutex for it.
// `Int.max` stands for `.unlimited` (a finite demand that large is indistinguishable in practice).


/// A demand counter safe to touch from any thread.
final class AtomicDemand: @unchecked Sendable {
    private let raw = Atomic<Int>(0)

    /// Takes one unit of demand if there is any. Unlimited demand is never used up.
    @inline(__always)
    func take() -> Bool {
        var current = raw.load(ordering: .relaxed)
        while true {
            if current == 0 { return false }
            if current == Int.max { return true }
            let (exchanged, original) = raw.compareExchange(
                expected: current, desired: current - 1, ordering: .acquiringAndReleasing)
            if exchanged { return true }
            current = original
        }
    }

    /// Adds `demand`, saturating at unlimited.
    @inline(__always)
    func add(_ demand: Subscribers.Demand) {
        guard let extra = demand.max else {
            raw.store(Int.max, ordering: .releasing)
            return
        }
        if extra == 0 { return }
        var current = raw.load(ordering: .relaxed)
        while current != Int.max {
            let (sum, overflow) = current.addingReportingOverflow(extra)
            let desired = overflow ? Int.max : sum
            let (exchanged, original) = raw.compareExchange(
                expected: current, desired: desired, ordering: .acquiringAndReleasing)
            if exchanged { return }
            current = original
        }
    }

    /// Drops all outstanding demand (after cancel or completion).
    func clear() { raw.store(0, ordering: .releasing) }

    /// True if some demand is outstanding.
    var hasDemand: Bool { raw.load(ordering: .acquiring) != 0 }
}
