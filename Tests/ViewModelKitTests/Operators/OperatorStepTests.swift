import Testing
import ViewModelKit

/// The one-upstream operators that may end the stream themselves (`tryFilter`, `tryCompactMap`,
/// `tryScan`, `tryRemoveDuplicates(by:)`, `prefix(while:)`, `drop(while:)` and their `try`
/// forms): exact values, the demand they pass upstream and what follows a throw.
@Suite struct StepOperatorTests {
    @Test func tryFilterSkipsAskForOneMoreAndAThrowCancels() {
        let upstream = ManualPublisher<Int, TestError>()
        let recorder = Recorder<Int, any Error>(initialDemand: .max(2))
        upstream.tryFilter { value in
            if value == 9 { throw TestError("nine") }
            return value.isMultiple(of: 2)
        }.subscribe(recorder)
        #expect(upstream.send(1) == .max(1))
        #expect(upstream.send(2) == .none)
        #expect(upstream.send(9) == .none)
        #expect(upstream.send(4) == .none)
        #expect(upstream.log.entries == ["request max(2)", "cancel"])
        #expect(rendered(recorder.events) == ["subscription", "value(2)", "failure(nine)"])
    }

    @Test func tryFilterPassesUpstreamFailureAsAnyError() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, any Error>()
        subject.tryFilter { _ in true }.subscribe(recorder)
        subject.send(1)
        subject.send(completion: .failure(TestError("up")))
        subject.send(2)
        #expect(rendered(recorder.events) == ["subscription", "value(1)", "failure(up)"])
    }

    @Test func tryCompactMapDropsNilAndFailsOnThrow() {
        let recorder = Recorder<Int, any Error>()
        ["1", "x", "3", "boom", "5"].publisher.eraseToAnyPublisher().tryCompactMap { text -> Int? in
            if text == "boom" { throw TestError("boom") }
            return Int(text)
        }.subscribe(recorder)
        #expect(rendered(recorder.events) == ["subscription", "value(1)", "value(3)", "failure(boom)"])
    }

    @Test func tryScanPublishesEachStepAndRestartsPerSubscription() {
        let publisher = [1, 2, 3].publisher.eraseToAnyPublisher().tryScan(0) { $0 + $1 }
        for _ in 0..<2 {
            let recorder = Recorder<Int, any Error>()
            publisher.subscribe(recorder)
            #expect(rendered(recorder.events) == ["subscription", "value(1)", "value(3)", "value(6)", "finished"])
        }
        let failing = Recorder<Int, any Error>()
        [1, 2, 3].publisher.eraseToAnyPublisher().tryScan(0) { sum, value in
            if value == 2 { throw TestError("two") }
            return sum + value
        }.subscribe(failing)
        #expect(rendered(failing.events) == ["subscription", "value(1)", "failure(two)"])
    }

    @Test func tryRemoveDuplicatesComparesWithThePreviousValue() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder<Int, any Error>()
        var compared: [String] = []
        upstream.tryRemoveDuplicates { a, b in
            compared.append("\(a)-\(b)")
            if b == 0 { throw TestError("zero") }
            return a == b
        }.subscribe(recorder)
        #expect(upstream.send(1) == .none)
        #expect(upstream.send(1) == .max(1))
        #expect(upstream.send(2) == .none)
        #expect(upstream.send(0) == .none)
        #expect(upstream.send(3) == .none)
        #expect(compared == ["1-1", "1-2", "2-0"])
        #expect(upstream.log.entries == ["request unlimited", "cancel"])
        #expect(rendered(recorder.events) == ["subscription", "value(1)", "value(2)", "failure(zero)"])
    }

    @Test func prefixWhileFinishesAtTheFirstRejectedValue() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder<Int, Never>(initialDemand: .max(3))
        upstream.prefix { $0 < 3 }.subscribe(recorder)
        upstream.send(1)
        upstream.send(2)
        upstream.send(3)
        upstream.send(1)
        upstream.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(1), .value(2), .finished])
        #expect(upstream.log.entries == ["request max(3)", "cancel"])
    }

    @Test func tryPrefixWhileThrowFails() {
        let recorder = Recorder<Int, any Error>()
        [1, 2, 3].publisher.eraseToAnyPublisher().tryPrefix { value in
            if value == 2 { throw TestError("two") }
            return true
        }.subscribe(recorder)
        #expect(rendered(recorder.events) == ["subscription", "value(1)", "failure(two)"])
        let finished = Recorder<Int, any Error>()
        [1, 2, 3].publisher.eraseToAnyPublisher().tryPrefix { $0 < 2 }.subscribe(finished)
        #expect(rendered(finished.events) == ["subscription", "value(1)", "finished"])
    }

    @Test func dropWhileStopsTestingAtTheFirstFalse() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder<Int, Never>(initialDemand: .max(2))
        var tested: [Int] = []
        upstream.drop {
            tested.append($0)
            return $0 < 3
        }.subscribe(recorder)
        #expect(upstream.send(1) == .max(1))
        #expect(upstream.send(2) == .max(1))
        #expect(upstream.send(3) == .none)
        #expect(upstream.send(1) == .none)
        #expect(tested == [1, 2, 3])
        #expect(recorder.events == [.subscription, .value(3), .value(1)])
        #expect(upstream.log.entries == ["request max(2)"])
        recorder.detach()  // a stream that never ends: its subscriber and subscription hold each other
    }

    @Test func tryDropWhileThrowCancelsAndFails() {
        let upstream = ManualPublisher<Int, TestError>()
        let recorder = Recorder<Int, any Error>()
        upstream.tryDrop { value in
            if value == 2 { throw TestError("two") }
            return true
        }.subscribe(recorder)
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(rendered(recorder.events) == ["subscription", "failure(two)"])
        #expect(upstream.log.entries == ["request unlimited", "cancel"])
    }

    @Test func nothingIsDeliveredAfterTheSubscriberCancelled() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder<Int, Never>(demandPerValue: .max(4))
        upstream.drop { $0 < 0 }.subscribe(recorder)
        #expect(upstream.send(1) == .max(4))
        recorder.cancel()
        #expect(upstream.send(2) == .none)
        upstream.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(1)])
        #expect(upstream.log.entries == ["request unlimited", "cancel"])
    }
}
