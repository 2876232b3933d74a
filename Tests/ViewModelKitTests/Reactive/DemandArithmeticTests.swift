import Foundation
import Testing
import ViewModelKit

/// `Subscribers.Demand` arithmetic, the whole table: Combine's documented rules (a result never
/// goes below `.max(0)`, anything with `.unlimited` on the adding side stays `.unlimited`, an
/// overflow upwards is `.unlimited`) and the cases OpenCombine's Combine-validated
/// `SubscribersDemandTests` record where the documentation is silent.
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

    @Test func addingTwoDemands() {
        #expect(Demand.max(100) + .max(42) == .max(142))
        #expect(Demand.none + .none == .none)
        #expect(Demand.max(42) + .unlimited == .unlimited)
        #expect(Demand.unlimited + .max(42) == .unlimited)
        #expect(Demand.unlimited + .unlimited == .unlimited)
        #expect(Demand.unlimited + .none == .unlimited)
    }

    @Test func aSumOfExactlyIntMaxIsStillFinite() {
        #expect(Demand.max(Int.max - 1) + .max(1) == .max(Int.max))
        #expect(Demand.max(Int.max - 1) + 1 == .max(Int.max))
        #expect((Demand.max(Int.max - 1) + 1).max == Int.max)
        #expect(Demand.max(Int.max) + .none == .max(Int.max))
        #expect(Demand.max(Int.max) != .unlimited)
    }

    @Test func aSumPastIntMaxSaturatesAtUnlimited() {
        #expect(Demand.max(Int.max) + .max(1) == .unlimited)
        #expect(Demand.max(Int.max) + 10 == .unlimited)
        #expect(Demand.max(Int.max / 2 + 1) + .max(Int.max / 2 + 1) == .unlimited)
        var demand = Demand.max(Int.max)
        demand += 10
        #expect(demand == .unlimited)
        demand = .max(Int.max)
        demand += .max(Int.max)
        #expect(demand == .unlimited)
    }

    @Test func addingACount() {
        #expect(Demand.max(81) + 42 == .max(123))
        #expect(Demand.max(81) + 0 == .max(81))
        #expect(Demand.unlimited + 42 == .unlimited)
        #expect(Demand.unlimited + Int.max == .unlimited)
        // A negative count subtracts, floored at zero.
        #expect(Demand.max(5) + -3 == .max(2))
        #expect(Demand.max(5) + -5 == .none)
        #expect(Demand.max(5) + -6 == .none)
        var demand = Demand.none
        demand += .max(1)
        demand += 21
        #expect(demand == .max(22))
        demand += .unlimited
        #expect(demand == .unlimited)
    }

    @Test func subtractingTwoDemands() {
        #expect(Demand.max(100) - .max(42) == .max(58))
        #expect(Demand.max(42) - .max(42) == .none)
        // Below zero is clamped to .max(0), as documented.
        #expect(Demand.max(1) - .max(2) == .none)
        #expect(Demand.unlimited - .max(42) == .unlimited)
        #expect(Demand.unlimited - .none == .unlimited)
        var demand = Demand.max(100)
        demand -= .max(1)
        #expect(demand == .max(99))
    }

    @Test func subtractingUnlimitedFromAFiniteDemandLeavesNone() {
        #expect(Demand.max(42) - .unlimited == .none)
        #expect(Demand.max(Int.max) - .unlimited == .none)
        #expect(Demand.none - .unlimited == .none)
        var demand = Demand.max(78)
        demand -= .unlimited
        #expect(demand == .none)
    }

    @Test func unlimitedMinusUnlimitedIsUnlimitedAsRecorded() {
        #expect(Demand.unlimited - .unlimited == .unlimited)
        var demand = Demand.unlimited
        demand -= .unlimited
        #expect(demand == .unlimited)
    }

    @Test func subtractingACount() {
        #expect(Demand.max(81) - 42 == .max(39))
        #expect(Demand.max(81) - 81 == .none)
        #expect(Demand.max(81) - 82 == .none)
        #expect(Demand.max(81) - Int.max == .none)
        #expect(Demand.unlimited - 42 == .unlimited)
        #expect(Demand.unlimited - Int.max == .unlimited)
        #expect(Demand.unlimited - Int.min == .unlimited)
        // A negative count adds; past Int.max it gives .none, as recorded for Combine.
        #expect(Demand.max(5) - -1 == .max(6))
        #expect(Demand.max(Int.max) - -1 == .none)
        #expect(Demand.max(1) - Int.min == .none)
        var demand = Demand.max(99)
        demand -= 21
        #expect(demand == .max(78))
        demand = .max(Int.max)
        demand -= -1
        #expect(demand == .none)
    }

    @Test func multiplying() {
        #expect(Demand.max(42) * 2 == .max(84))
        #expect(Demand.max(42) * 0 == .none)
        #expect(Demand.none * 10 == .none)
        #expect(Demand.unlimited * Int.max == .unlimited)
        #expect(Demand.unlimited * 0 == .unlimited)
        #expect(Demand.max(Int.max) * 2 == .unlimited)
        #expect(Demand.max(Int.max / 2) * 2 == .max(Int.max - 1))
        // A negative factor would make a negative demand: clamped to .max(0), never a trap.
        #expect(Demand.max(42) * -10 == .none)
        #expect(Demand.unlimited * -1 == .unlimited)
        var demand = Demand.max(20)
        demand *= 2
        #expect(demand == .max(40))
        demand = .max(Int.max)
        demand *= 2
        #expect(demand == .unlimited)
    }

    /// Every comparison operator on the pairs Combine's tests record: (a, b, a < b, a == b).
    @Test(arguments: [
        (Demand.unlimited, Demand.unlimited, false, true),
        (Demand.unlimited, Demand.max(42), false, false),
        (Demand.max(42), Demand.unlimited, true, false),
        (Demand.max(42), Demand.max(100), true, false),
        (Demand.max(142), Demand.max(100), false, false),
        (Demand.max(100), Demand.max(100), false, true),
        (Demand.none, Demand.max(0), false, true),
        (Demand.max(Int.max), Demand.unlimited, true, false),
    ])
    func comparingTwoDemands(a: Demand, b: Demand, less: Bool, equal: Bool) {
        #expect((a < b) == less)
        #expect((a == b) == equal)
        #expect((a != b) == !equal)
        #expect((a <= b) == (less || equal))
        #expect((a > b) == !(less || equal))
        #expect((a >= b) == !less)
    }

    /// Every comparison with a count, both ways round: (demand, count, demand < count, equal).
    @Test(arguments: [
        (Demand.unlimited, 42, false, false),
        (Demand.unlimited, Int.max, false, false),
        (Demand.max(42), 100, true, false),
        (Demand.max(142), 100, false, false),
        (Demand.max(100), 100, false, true),
        (Demand.none, 0, false, true),
        (Demand.none, -1, false, false),
    ])
    func comparingADemandWithACount(demand: Demand, count: Int, less: Bool, equal: Bool) {
        #expect((demand < count) == less)
        #expect((demand == count) == equal)
        #expect((demand != count) == !equal)
        #expect((demand <= count) == (less || equal))
        #expect((demand > count) == !(less || equal))
        #expect((demand >= count) == !less)
        #expect((count > demand) == less)
        #expect((count == demand) == equal)
        #expect((count != demand) == !equal)
        #expect((count >= demand) == (less || equal))
        #expect((count < demand) == !(less || equal))
        #expect((count <= demand) == !less)
    }

    @Test func maxAndDescription() {
        #expect(Demand.none.max == 0)
        #expect(Demand.max(42).max == 42)
        #expect(Demand.unlimited.max == nil)
        #expect(Demand.none.description == "max(0)")
        #expect(Demand.max(42).description == "max(42)")
        #expect(Demand.unlimited.description == "unlimited")
    }

    /// Keyed, as Combine's recorded encoding: `.unlimited` is `Int.max + 1`; anything above
    /// `Int.max` decodes as `.unlimited`; a negative number is an error.
    @Test func encodesAndDecodesAsCombineRecords() throws {
        struct Keyed: Codable, Equatable { let value: Demand }
        let encoder = JSONEncoder()
        #expect(String(decoding: try encoder.encode(Keyed(value: .max(42))), as: UTF8.self) == #"{"value":42}"#)
        let unlimited = String(decoding: try encoder.encode(Keyed(value: .unlimited)), as: UTF8.self)
        #expect(unlimited == #"{"value":9223372036854775808}"#)
        let decoder = JSONDecoder()
        #expect(try decoder.decode(Keyed.self, from: Data(unlimited.utf8)) == Keyed(value: .unlimited))
        #expect(try decoder.decode(Keyed.self, from: Data(#"{"value":9223372036854775809}"#.utf8)).value == .unlimited)
        #expect(throws: DecodingError.self) { try decoder.decode(Keyed.self, from: Data(#"{"value":-1}"#.utf8)) }
    }
}
