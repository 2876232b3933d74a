import Synchronization

// Outstanding demand as a lock-free counter, so a subject's hot path takes no mutex for it.
// `Int.max` stands for `.unlimited` (a finite demand that large is indistinguishable in practice).
// Stored inline (`let demand = Atomic<Int>(0)`) by the subscriptions that need it.

extension Atomic where Value == Int {
    /// Takes one unit of demand if there is any. Unlimited demand is never used up.
    @inline(__always)
    func takeDemand() -> Bool {
        var current = load(ordering: .relaxed)
        while true {
            if current == 0 { return false }
            if current == Int.max { return true }
            let (exchanged, original) = compareExchange(
                expected: current, desired: current - 1, ordering: .acquiringAndReleasing)
            if exchanged { return true }
            current = original
        }
    }

    /// Adds `demand`, saturating at unlimited.
    @inline(__always)
    func addDemand(_ demand: Subscribers.Demand) {
        guard let extra = demand.max else {
            store(Int.max, ordering: .releasing)
            return
        }
        if extra == 0 { return }
        var current = load(ordering: .relaxed)
        while current != Int.max {
            let (sum, overflow) = current.addingReportingOverflow(extra)
            let desired = overflow ? Int.max : sum
            let (exchanged, original) = compareExchange(
                expected: current, desired: desired, ordering: .acquiringAndReleasing)
            if exchanged { return }
            current = original
        }
    }

    /// Drops all outstanding demand (after cancel or completion).
    func clearDemand() { store(0, ordering: .releasing) }
}
