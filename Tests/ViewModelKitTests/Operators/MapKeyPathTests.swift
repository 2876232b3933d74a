import Foundation
import Testing
import ViewModelKit
import ViewModelKitSchedulers

/// Tests of `Publishers.MapKeyPath` and the operator that returns it.
@Suite struct MapKeyPathTests {
    struct Point {
        let x: Int
        let y: Int
        let label: String
    }

    @Test func keyPathMapsReadOneTwoOrThreePaths() {
        let points = [Point(x: 1, y: 2, label: "a"), Point(x: 3, y: 4, label: "b")]
        let one = Recorder<Int, Never>()
        points.publisher.map(\.x).subscribe(one)
        #expect(one.events == [.subscription, .value(1), .value(3), .finished])
        let two = Recorder<(Int, String), Never>()
        points.publisher.map(\.y, \.label).subscribe(two)
        #expect(rendered(two.events) == ["subscription", "value((2, \"a\"))", "value((4, \"b\"))", "finished"])
        let three = Recorder<(Int, Int, String), Never>()
        points.publisher.map(\.x, \.y, \.label).subscribe(three)
        #expect(rendered(three.events) == ["subscription", "value((1, 2, \"a\"))", "value((3, 4, \"b\"))", "finished"])
    }
}
