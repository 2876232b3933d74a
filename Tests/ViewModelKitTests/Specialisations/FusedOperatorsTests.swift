import Testing
import ViewModelKit

/// Combine's fused specialisations (`map` after `map`, `filter` after `filter`, …): Combine's
/// result types, and the values and demand of the two operators in a row.
@Suite struct FusedOperatorTests {
    @Test func mapAfterMapIsOneMap() {
        let subject = PassthroughSubject<Int, Never>()
        let fused: Publishers.Map<PassthroughSubject<Int, Never>, String> = subject.map { $0 * 2 }.map { "\($0)" }
        let recorder = Recorder<String, Never>()
        fused.subscribe(recorder)
        subject.send(1)
        subject.send(5)
        #expect(recorder.values == ["2", "10"])
        recorder.detach()  // streams that never end: subscriber and subscription hold each other
    }

    @Test func tryMapFusionsFailOnTheThrow() {
        let subject = PassthroughSubject<Int, Never>()
        let fused: Publishers.TryMap<PassthroughSubject<Int, Never>, Int> =
            subject
            .tryMap { value -> Int in
                if value == 3 { throw TestError("three") }
                return value
            }
            .map { $0 + 100 }
        let recorder = Recorder<Int, any Error>()
        fused.subscribe(recorder)
        subject.send(1)
        subject.send(3)
        subject.send(4)
        #expect(rendered(recorder.events) == ["subscription", "value(101)", "failure(three)"])
        let mapThenTry: Publishers.TryMap<PassthroughSubject<Int, Never>, Int> = subject.map { $0 }.tryMap { $0 }
        let chained: Publishers.TryMap<PassthroughSubject<Int, Never>, Int> = subject.tryMap { $0 }.tryMap { $0 }
        _ = (mapThenTry, chained)
    }

    @Test func filterAfterFilterRequiresBothAndRefillsDemand() {
        let upstream = ManualPublisher<Int, Never>()
        let fused: Publishers.Filter<ManualPublisher<Int, Never>> = upstream.filter { $0 > 1 }.filter { $0 < 4 }
        let recorder = Recorder<Int, Never>(initialDemand: .max(2))
        fused.subscribe(recorder)
        #expect(upstream.send(1) == .max(1))
        #expect(upstream.send(2) == .none)
        #expect(upstream.send(5) == .max(1))
        #expect(upstream.send(3) == .none)
        #expect(recorder.values == [2, 3])
        let tried: Publishers.TryFilter<ManualPublisher<Int, Never>> = upstream.filter { $0 > 1 }.tryFilter { $0 < 4 }
        let triedTwice: Publishers.TryFilter<ManualPublisher<Int, Never>> = upstream.tryFilter { $0 > 1 }.filter {
            $0 < 4
        }
        _ = (tried, triedTwice.tryFilter { _ in true })
    }

    @Test func compactMapFusionsDropNilFromEitherStep() {
        let subject = PassthroughSubject<String, Never>()
        let fused: Publishers.CompactMap<PassthroughSubject<String, Never>, Int> =
            subject
            .compactMap { Int($0) }
            .compactMap { $0 > 0 ? $0 : nil }
        let recorder = Recorder<Int, Never>()
        fused.subscribe(recorder)
        for text in ["1", "x", "-2", "3"] { subject.send(text) }
        #expect(recorder.values == [1, 3])
        let mapped: Publishers.CompactMap<PassthroughSubject<String, Never>, Int> = subject.compactMap { Int($0) }.map {
            $0 * 2
        }
        let tried: Publishers.TryCompactMap<PassthroughSubject<String, Never>, Int> = subject.tryCompactMap { Int($0) }
            .compactMap { $0 }
        _ = (mapped, tried)
        recorder.detach()  // streams that never end: subscriber and subscription hold each other
    }

    @Test func dropFirstAfterDropFirstAddsTheCounts() {
        let subject = PassthroughSubject<Int, Never>()
        let fused: Publishers.Drop<PassthroughSubject<Int, Never>> = subject.dropFirst(2).dropFirst()
        #expect(fused.count == 3)
        let recorder = Recorder<Int, Never>()
        fused.subscribe(recorder)
        for value in 1...5 { subject.send(value) }
        #expect(recorder.values == [4, 5])
        recorder.detach()  // streams that never end: subscriber and subscription hold each other
    }

    @Test func mergeWithMoreGivesTheNextArity() {
        let (a, b, c, d) = (
            PassthroughSubject<Int, Never>(), PassthroughSubject<Int, Never>(),
            PassthroughSubject<Int, Never>(), PassthroughSubject<Int, Never>()
        )
        let three:
            Publishers.Merge3<
                PassthroughSubject<Int, Never>, PassthroughSubject<Int, Never>, PassthroughSubject<Int, Never>
            > =
                a.merge(with: b).merge(with: c)
        let eight = three.merge(with: d, a, b).merge(with: c, d)
        let recorder = Recorder<Int, Never>()
        three.merge(with: d).subscribe(recorder)
        d.send(4)
        a.send(1)
        c.send(3)
        b.send(2)
        #expect(recorder.values == [4, 1, 3, 2])
        let eightRecorder = Recorder<Int, Never>()
        eight.subscribe(eightRecorder)
        a.send(7)
        #expect(eightRecorder.values == [7, 7])
        let _:
            Publishers.Merge8<
                PassthroughSubject<Int, Never>, PassthroughSubject<Int, Never>, PassthroughSubject<Int, Never>,
                PassthroughSubject<Int, Never>, PassthroughSubject<Int, Never>, PassthroughSubject<Int, Never>,
                PassthroughSubject<Int, Never>, PassthroughSubject<Int, Never>
            > = eight
        recorder.detach()  // streams that never end: subscriber and subscription hold each other
        eightRecorder.detach()
    }
}
