import Testing
import ViewModelKit

@Suite struct MapFamilyTests {
    @Test func mapTransformsAndPassesCompletion() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<String, TestError>()
        subject.map { "#\($0)" }.subscribe(recorder)
        subject.send(1)
        subject.send(2)
        subject.send(completion: .failure(TestError()))
        #expect(recorder.events == [.subscription, .value("#1"), .value("#2"), .failure(TestError())])
    }

    @Test func mapPassesDemandAndCancelStraightThrough() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder<Int, Never>(initialDemand: .max(2), demandPerValue: .max(1))
        upstream.map { $0 * 10 }.subscribe(recorder)
        #expect(upstream.send(1) == .max(1))
        recorder.cancel()
        #expect(upstream.log.entries == ["request max(2)", "cancel"])
        #expect(recorder.values == [10])
    }

    @Test func mapNeverExceedsDemand() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Int, Never>(initialDemand: .max(2))
        subject.map { $0 + 1 }.subscribe(recorder)
        for i in 0..<5 { subject.send(i) }
        #expect(recorder.values == [1, 2])
        recorder.detachIfRunning()
    }

    @Test func tryMapThrowCancelsUpstreamAndFails() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder<Int, Error>()
        upstream.tryMap { value -> Int in
            if value == 2 { throw TestError("two") }
            return value
        }.subscribe(recorder)
        upstream.send(1)
        upstream.send(2)
        upstream.send(3)  // after the failure: ignored
        upstream.send(completion: .finished)
        #expect(upstream.log.entries == ["request unlimited", "cancel"])
        #expect(recorder.events.map(\.description) == ["subscription", "value(1)", "failure(two)"])
    }

    @Test func tryMapPassesUpstreamFailureAndCancel() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, Error>()
        subject.tryMap { $0 }.subscribe(recorder)
        subject.send(1)
        subject.send(completion: .failure(TestError("up")))
        #expect(recorder.events.map(\.description) == ["subscription", "value(1)", "failure(up)"])

        let upstream = ManualPublisher<Int, Never>()
        let other = Recorder<Int, Error>(initialDemand: .max(1))
        upstream.tryMap { $0 }.subscribe(other)
        other.request(.max(3))
        other.cancel()
        #expect(upstream.log.entries == ["request max(1)", "request max(3)", "cancel"])
    }

    @Test func compactMapDropsNilAndAsksForMore() {
        let upstream = ManualPublisher<String, Never>()
        let recorder = Recorder<Int, Never>(initialDemand: .max(1))
        upstream.compactMap { Int($0) }.subscribe(recorder)
        #expect(upstream.send("x") == .max(1))
        #expect(upstream.send("7") == .none)
        upstream.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(7), .finished])
    }

    @Test func compactMapCancel() {
        let subject = PassthroughSubject<Int?, Never>()
        let recorder = Recorder<Int, Never>()
        subject.compactMap { $0 }.subscribe(recorder)
        subject.send(nil)
        subject.send(1)
        recorder.cancel()
        subject.send(2)
        #expect(recorder.events == [.subscription, .value(1)])
    }

    @Test func scanAccumulates() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        subject.scan(10) { $0 + $1 }.subscribe(recorder)
        subject.send(1)
        subject.send(2)
        subject.send(completion: .failure(TestError()))
        #expect(recorder.events == [.subscription, .value(11), .value(13), .failure(TestError())])
    }

    @Test func scanRespectsDemandAndCancel() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Int, Never>(initialDemand: .max(1))
        subject.scan(0, +).subscribe(recorder)
        subject.send(1)
        subject.send(2)  // no demand: dropped by the subject
        recorder.request(.max(5))
        subject.send(3)
        recorder.cancel()
        subject.send(4)
        #expect(recorder.values == [1, 4])
    }

    @Test func setFailureTypeAndMapError() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Int, TestError>()
        subject.setFailureType(to: TestError.self).subscribe(recorder)
        subject.send(1)
        subject.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(1), .finished])

        let failing = PassthroughSubject<Int, TestError>()
        let mapped = Recorder<Int, TestError>()
        failing.mapError { TestError("mapped-\($0.name)") }.subscribe(mapped)
        failing.send(2)
        failing.send(completion: .failure(TestError("x")))
        #expect(mapped.events == [.subscription, .value(2), .failure(TestError("mapped-x"))])
    }

    @Test func mapErrorAndSetFailureTypePassDemandAndCancel() {
        let upstream = ManualPublisher<Int, TestError>()
        let recorder = Recorder<Int, TestError>(initialDemand: .max(1))
        upstream.mapError { $0 }.subscribe(recorder)
        recorder.cancel()
        #expect(upstream.log.entries == ["request max(1)", "cancel"])

        let never = ManualPublisher<Int, Never>()
        let other = Recorder<Int, TestError>(initialDemand: .max(2))
        never.setFailureType(to: TestError.self).subscribe(other)
        other.cancel()
        #expect(never.log.entries == ["request max(2)", "cancel"])
    }
}

@Suite struct FilterFamilyTests {
    @Test func filterKeepsMatchingValuesAndAsksForMore() {
        let upstream = ManualPublisher<Int, TestError>()
        let recorder = Recorder<Int, TestError>(initialDemand: .max(1))
        upstream.filter { $0.isMultiple(of: 2) }.subscribe(recorder)
        #expect(upstream.send(1) == .max(1))
        #expect(upstream.send(2) == .none)
        upstream.send(completion: .failure(TestError()))
        #expect(recorder.events == [.subscription, .value(2), .failure(TestError())])
        #expect(upstream.log.entries == ["request max(1)"])
    }

    @Test func filterNeverExceedsDemandAndCancels() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Int, Never>(initialDemand: .max(2))
        subject.filter { $0 > 0 }.subscribe(recorder)
        for i in [0, 1, 0, 2, 3, 4] { subject.send(i) }
        #expect(recorder.values == [1, 2])
        recorder.cancel()
        recorder.request(.max(1))
        subject.send(5)
        #expect(recorder.values == [1, 2])
    }

    @Test func removeDuplicatesEquatable() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Int, Never>()
        subject.removeDuplicates().subscribe(recorder)
        for i in [1, 1, 2, 2, 2, 1, 3, 3] { subject.send(i) }
        subject.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(1), .value(2), .value(1), .value(3), .finished])
    }

    @Test func removeDuplicatesByPredicateComparesWithLastReceived() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder<Int, Never>(initialDemand: .max(10))
        // "Duplicate" = within 1 of the previous value received (dropped ones included).
        upstream.removeDuplicates { abs($0 - $1) <= 1 }.subscribe(recorder)
        upstream.send(1)
        #expect(upstream.send(2) == .max(1))
        upstream.send(3)  // compared with 2 (dropped, but the last received): dropped too
        upstream.send(5)
        #expect(recorder.values == [1, 5])
    }

    /// Each dropped duplicate asks upstream for exactly one more value (the downstream saw
    /// nothing, so its demand is unspent), as Combine; a passed value returns what downstream
    /// returns. Both forms: `==` and `tryRemoveDuplicates(by:)`.
    @Test func removeDuplicatesAsksForOneMoreAfterEachDroppedDuplicate() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder<Int, Never>(initialDemand: .max(2))
        upstream.removeDuplicates().subscribe(recorder)
        #expect(upstream.send(7) == .none)
        #expect(upstream.send(7) == .max(1))
        #expect(upstream.send(7) == .max(1))
        #expect(upstream.send(8) == .none)
        #expect(recorder.values == [7, 8])
        #expect(upstream.log.entries == ["request max(2)"])
        recorder.detachIfRunning()

        let throwing = ManualPublisher<Int, Never>()
        let other = Recorder<Int, Error>(initialDemand: .max(1))
        throwing.tryRemoveDuplicates { $0 == $1 }.subscribe(other)
        #expect(throwing.send(1) == .none)
        #expect(throwing.send(1) == .max(1))
        #expect(other.values == [1])
        other.detachIfRunning()
    }

    @Test func removeDuplicatesFailureAndCancel() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        subject.removeDuplicates().subscribe(recorder)
        subject.send(1)
        subject.send(completion: .failure(TestError()))
        #expect(recorder.events == [.subscription, .value(1), .failure(TestError())])

        let upstream = ManualPublisher<Int, Never>()
        let other = Recorder<Int, Never>(initialDemand: .max(1))
        upstream.removeDuplicates().subscribe(other)
        other.cancel()
        #expect(upstream.log.entries == ["request max(1)", "cancel"])
    }

    @Test func ignoreOutputRequestsEverythingAndPassesCompletion() {
        let upstream = ManualPublisher<Int, TestError>()
        let recorder = Recorder<Never, TestError>(initialDemand: nil)
        upstream.ignoreOutput().subscribe(recorder)
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .failure(TestError()))
        #expect(upstream.log.entries == ["request unlimited"])
        #expect(recorder.events.map(\.description) == ["subscription", "failure(boom)"])

        let other = ManualPublisher<Int, Never>()
        let cancelled = Recorder<Never, Never>(initialDemand: nil)
        other.ignoreOutput().subscribe(cancelled)
        cancelled.cancel()
        #expect(other.log.entries == ["request unlimited", "cancel"])
    }
}

@Suite struct SlicingTests {
    @Test func dropFirstOmitsAndAddsCountToFirstRequest() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder<Int, Never>(initialDemand: .max(2))
        upstream.dropFirst(3).subscribe(recorder)
        for i in 1...5 { upstream.send(i) }
        recorder.request(.max(1))
        upstream.send(completion: .finished)
        #expect(upstream.log.entries == ["request max(5)", "request max(1)"])
        #expect(recorder.events == [.subscription, .value(4), .value(5), .finished])
    }

    @Test func dropFirstWithSubjectAndCancel() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        subject.dropFirst().subscribe(recorder)
        subject.send(1)
        subject.send(2)
        recorder.cancel()
        subject.send(3)
        #expect(recorder.events == [.subscription, .value(2)])

        let failing = PassthroughSubject<Int, TestError>()
        let failed = Recorder<Int, TestError>()
        failing.dropFirst(5).subscribe(failed)
        failing.send(1)
        failing.send(completion: .failure(TestError()))
        #expect(failed.events == [.subscription, .failure(TestError())])
    }

    @Test func prefixFinishesAndCancelsUpstream() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder<Int, Never>(initialDemand: .max(5))
        upstream.prefix(2).subscribe(recorder)
        upstream.send(1)
        upstream.send(2)
        upstream.send(3)
        #expect(recorder.events == [.subscription, .value(1), .value(2), .finished])
        #expect(upstream.log.entries == ["request max(5)", "cancel"])
    }

    @Test func prefixZeroFinishesAtOnce() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder<Int, Never>(initialDemand: nil)
        upstream.prefix(0).subscribe(recorder)
        #expect(recorder.events == [.subscription, .finished])
        #expect(upstream.log.entries == ["cancel"])
    }

    @Test func prefixRespectsDemandAndPassesFailure() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>(initialDemand: .max(1))
        subject.prefix(3).subscribe(recorder)
        subject.send(1)
        subject.send(2)  // no demand
        recorder.request(.max(1))
        subject.send(3)
        subject.send(completion: .failure(TestError()))
        #expect(recorder.events == [.subscription, .value(1), .value(3), .failure(TestError())])
    }

    @Test func outputAtIndex() {
        let upstream = ManualPublisher<String, Never>()
        let recorder = Recorder<String, Never>(initialDemand: .max(1))
        upstream.output(at: 2).subscribe(recorder)
        #expect(upstream.send("a") == .max(1))
        #expect(upstream.send("b") == .max(1))
        upstream.send("c")
        upstream.send("d")
        #expect(recorder.events == [.subscription, .value("c"), .finished])
        #expect(upstream.log.entries == ["request max(1)", "cancel"])
    }

    @Test func outputInRangeAndCancel() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Int, Never>()
        subject.output(in: 1...2).subscribe(recorder)
        for i in 0..<5 { subject.send(i) }
        #expect(recorder.events == [.subscription, .value(1), .value(2), .finished])

        let other = Recorder<Int, Never>()
        subject.output(in: 1...).subscribe(other)
        subject.send(10)
        subject.send(11)
        other.cancel()
        subject.send(12)
        #expect(other.events == [.subscription, .value(11)])
    }
}

@Suite struct ReducingTests {
    @Test func firstRequestsEverythingAndWaitsForDemand() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder<Int, Never>(initialDemand: nil)
        upstream.first().subscribe(recorder)
        #expect(upstream.log.entries == ["request unlimited"])
        upstream.send(7)
        upstream.send(8)
        #expect(upstream.log.entries == ["request unlimited", "cancel"])
        #expect(recorder.events == [.subscription])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(7), .finished])
    }

    @Test func firstOfEmptyFinishesOnDemandAndFailsAtOnce() {
        let empty = Recorder<Int, TestError>(initialDemand: nil)
        Empty<Int, TestError>().first().subscribe(empty)
        #expect(empty.events == [.subscription])
        empty.request(.max(1))
        #expect(empty.events == [.subscription, .finished])
        let failed = Recorder<Int, TestError>(initialDemand: nil)
        Fail<Int, TestError>(error: TestError()).first().subscribe(failed)
        #expect(failed.events == [.subscription, .failure(TestError())])
    }

    @Test func firstCancelled() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder<Int, Never>(initialDemand: nil)
        upstream.first().subscribe(recorder)
        recorder.cancel()
        upstream.send(1)
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription])
        #expect(upstream.log.entries == ["request unlimited", "cancel"])
    }

    @Test func lastPublishesOnFinish() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Int, Never>(initialDemand: .max(1))
        subject.last().subscribe(recorder)
        subject.send(1)
        subject.send(2)
        subject.send(3)
        #expect(recorder.events == [.subscription])
        subject.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(3), .finished])
    }

    @Test func lastWaitsForDemandFailsAndCancels() {
        let upstream = ManualPublisher<Int, TestError>()
        let recorder = Recorder<Int, TestError>(initialDemand: nil)
        upstream.last().subscribe(recorder)
        upstream.send(1)
        upstream.send(completion: .finished)
        #expect(recorder.events == [.subscription])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(1), .finished])

        let failing = PassthroughSubject<Int, TestError>()
        let failed = Recorder<Int, TestError>()
        failing.last().subscribe(failed)
        failing.send(1)
        failing.send(completion: .failure(TestError()))
        #expect(failed.events == [.subscription, .failure(TestError())])

        let cancelled = ManualPublisher<Int, Never>()
        let c = Recorder<Int, Never>()
        cancelled.last().subscribe(c)
        c.cancel()
        cancelled.send(1)
        cancelled.send(completion: .finished)
        #expect(c.events == [.subscription])
    }

    @Test func collectGathersAllValues() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder<[Int], Never>(initialDemand: .max(1))
        subject.collect().subscribe(recorder)
        for i in 1...4 { subject.send(i) }
        subject.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value([1, 2, 3, 4]), .finished])

        let empty = Recorder<[Int], Never>()
        Empty<Int, Never>().collect().subscribe(empty)
        #expect(empty.events == [.subscription, .value([]), .finished])
    }

    @Test func collectFailureDiscardsAndCancelStops() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<[Int], TestError>()
        subject.collect().subscribe(recorder)
        subject.send(1)
        subject.send(completion: .failure(TestError()))
        #expect(recorder.events == [.subscription, .failure(TestError())])

        let upstream = ManualPublisher<Int, Never>()
        let cancelled = Recorder<[Int], Never>(initialDemand: nil)
        upstream.collect().subscribe(cancelled)
        upstream.send(1)
        cancelled.cancel()
        upstream.send(completion: .finished)
        cancelled.request(.max(1))
        #expect(cancelled.events == [.subscription])
        #expect(upstream.log.entries == ["request unlimited", "cancel"])
    }
}

@Suite struct ErrorHandlingTests {
    @Test func replaceErrorWithDemandPublishesReplacement() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, Never>()
        subject.replaceError(with: -1).subscribe(recorder)
        subject.send(1)
        subject.send(completion: .failure(TestError()))
        #expect(recorder.events == [.subscription, .value(1), .value(-1), .finished])
    }

    @Test func replaceErrorWaitsForDemand() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, Never>(initialDemand: .max(1))
        subject.replaceError(with: -1).subscribe(recorder)
        subject.send(1)
        subject.send(completion: .failure(TestError()))
        #expect(recorder.events == [.subscription, .value(1)])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(1), .value(-1), .finished])
    }

    @Test func replaceErrorPassesFinishedAndCancel() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, Never>()
        subject.replaceError(with: 0).subscribe(recorder)
        subject.send(completion: .finished)
        #expect(recorder.events == [.subscription, .finished])

        let upstream = ManualPublisher<Int, TestError>()
        let cancelled = Recorder<Int, Never>(initialDemand: .max(2))
        upstream.replaceError(with: 0).subscribe(cancelled)
        cancelled.cancel()
        upstream.send(completion: .failure(TestError()))
        #expect(cancelled.events == [.subscription])
        #expect(upstream.log.entries == ["request max(2)", "cancel"])
    }
}

@Suite struct DebuggingOperatorTests {
    @Test func handleEventsCallsHooksBeforeEachEvent() {
        let upstream = ManualPublisher<Int, Never>()
        var log: [String] = []
        let recorder = Recorder<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
        recorder.onValue = { log.append("downstream \($0)") }
        upstream.handleEvents(
            receiveSubscription: { _ in log.append("subscription") },
            receiveOutput: { log.append("output \($0)") },
            receiveCompletion: { log.append("completion \($0)") },
            receiveCancel: { log.append("cancel") },
            receiveRequest: { log.append("request \($0)") }
        ).subscribe(recorder)
        upstream.send(5)
        recorder.cancel()
        recorder.cancel()
        #expect(log == ["subscription", "request max(1)", "output 5", "downstream 5", "request max(1)", "cancel"])
        #expect(upstream.log.entries == ["request max(1)", "cancel"])
    }

    @Test func handleEventsCompletion() {
        var log: [String] = []
        let recorder = Recorder<Int, Never>()
        Just(1).handleEvents(receiveCompletion: { _ in log.append("completion") }).subscribe(recorder)
        #expect(log == ["completion"])
        #expect(recorder.events == [.subscription, .value(1), .finished])
    }

    final class Lines: TextOutputStream, @unchecked Sendable {
        var text = ""
        func write(_ string: String) { text += string }
    }

    @Test func printWritesCombineStyleLines() {
        let lines = Lines()
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>(initialDemand: .max(1), demandPerValue: .max(1))
        subject.print("P", to: lines).subscribe(recorder)
        subject.send(1)
        subject.send(completion: .failure(TestError("bad")))
        #expect(
            lines.text == """
                P: receive subscription: (PassthroughSubject)
                P: request max: (1)
                P: receive value: (1)
                P: request max: (1) (synchronous)
                P: receive error: (bad)

                """)
        #expect(recorder.events == [.subscription, .value(1), .failure(TestError("bad"))])
    }

    @Test func printCancelAndFinishWithoutPrefix() {
        let lines = Lines()
        let recorder = Recorder<Int, Never>()
        Just(3).print(to: lines).subscribe(recorder)
        let subject = PassthroughSubject<Int, Never>()
        let cancelled = Recorder<Int, Never>()
        subject.print(to: lines).subscribe(cancelled)
        cancelled.cancel()
        #expect(
            lines.text == """
                receive subscription: (Just)
                request unlimited
                receive value: (3)
                receive finished
                receive subscription: (PassthroughSubject)
                request unlimited
                receive cancel

                """)
    }
}

@Suite struct ChainTests {
    @Test func chainDeliversAndRespectsDemand() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Int, Never>(initialDemand: .max(3))
        subject.map { $0 / 2 }.filter { $0 != 2 }.removeDuplicates().subscribe(recorder)
        for i in 0..<12 { subject.send(i) }
        // 0,0,1,1,2,2,3,3,4,4,5,5 -> filter 2 -> dedupe -> 0,1,3,4,5; demand 3.
        #expect(recorder.values == [0, 1, 3])
        recorder.detach()  // the subject never ends: its conduit and the recorder hold each other
        #expect(
            subject.map { $0 }.filter { _ in true }
                is Publishers.Filter<Publishers.Map<PassthroughSubject<Int, Never>, Int>>)
    }

    @Test func sinkOnChainCancelledByDroppingToken() {
        let subject = PassthroughSubject<Int, Never>()
        var seen: [Int] = []
        var token: AnyCancellable? = subject.map { $0 * 2 }.sink { seen.append($0) }
        subject.send(1)
        token = nil
        subject.send(2)
        #expect(seen == [2])
        #expect(token == nil)
    }
}
