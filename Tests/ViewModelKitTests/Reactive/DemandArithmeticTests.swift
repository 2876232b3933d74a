import Testing
import ViewModelKit

/// `Subscribers.Demand` arithmetic saturates at both ends and never traps.
@Suite struct DemandArithmeticTests {
    typealias Demand = Subscribers.Demand

    @Test func addingIntMinSaturatesAtNoneAndNeverTraps() {
        #expect(Demand.max(5) + Int.min == .none)
        #expect(Demand.none + Int.min == .none)
        #expect(Demand.max(Int.max) + Int.min == .none)
        #expect(Demand.unlimited + Int.min == .unlimited)
        var demand = Demand.max(3)
        demand += Int.min
        #expect(demand == .none)
    }
}
