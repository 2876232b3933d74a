import Testing
import ViewModelKit

/// Behaviours that Combine add-on libraries' own suites rely on (found by running them against
/// ViewModelKit), each as Combine has it.
@Suite struct AddOnPortingBehaviourTests {
    @Test func prefixIgnoresAValueSentBackInWhileItDeliversItsLast() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Int, Never>()
        recorder.onValue = { value in if value < 5 { subject.send(value + 1) } }
        subject.prefix(1).subscribe(recorder)
        subject.send(1)
        #expect(recorder.events == [.subscription, .value(1), .finished])
    }

    @Test func outputInARangeIgnoresValuesSentBackInAfterItsLastPosition() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Int, Never>()
        recorder.onValue = { value in if value < 10 { subject.send(value + 1) } }
        subject.output(in: 1..<3).subscribe(recorder)
        subject.send(1)  // position 0, dropped
        subject.send(5)  // position 1, delivered, sends 6 back in: position 2, the last
        #expect(recorder.events == [.subscription, .value(5), .value(6), .finished])
    }

    /// A retry-when built on `prefix(1)` resubscribes from inside the delivery; it must end.
    @Test func aRetryLoopOnPrefixOneEnds() {
        let subject = PassthroughSubject<Int, Never>()
        var deliveries = 0
        var tokens: [AnyCancellable] = []
        func subscribeOnce() {
            subject.prefix(1).sink { _ in
                deliveries += 1
                if deliveries < 1_000 { subject.send(deliveries) }
            }.store(in: &tokens)
        }
        subscribeOnce()
        subject.send(0)
        #expect(deliveries == 1)
    }

    @Test func handleEventsLetsItsUpstreamPublisherGo() {
        var owner: EndsWhenReleased? = EndsWhenReleased()
        let recorder = Recorder<Int, Never>()
        owner?.handleEvents(receiveOutput: { _ in }).subscribe(recorder)
        owner?.send(1)
        owner = nil
        #expect(recorder.events == [.subscription, .value(1), .finished])
    }

    @Test func aCurrentValueSubjectAsASubscriberRequestsUnlimitedAtOnce() {
        let log = DemandLog()
        let subject = CurrentValueSubject<Int, Never>(0)
        subject.send(subscription: LoggingSubscription(log))
        #expect(log.entries == ["request unlimited"])
        // PassthroughSubject waits for a subscriber's demand, as Combine's.
        let passthroughLog = DemandLog()
        let passthrough = PassthroughSubject<Int, Never>()
        passthrough.send(subscription: LoggingSubscription(passthroughLog))
        #expect(passthroughLog.entries == [])
        withExtendedLifetime((subject, passthrough)) {}
    }

    @Test func chainedCurrentValueSubjectsDeliverTheInitialValueOnce() {
        let source = CurrentValueSubject<String, Never>("initial")
        let relay = CurrentValueSubject<String, Never>("initial")
        let token = source.subscribe(relay)
        var seen: [String] = []
        let sink = relay.sink { seen.append($0) }
        for value in ["1", "2", "3"] { source.send(value) }
        #expect(seen == ["initial", "1", "2", "3"])
        #expect(relay.value == "3")
        token.cancel()
        sink.cancel()
    }

    @Test func anyCancellableStoresItselfInASetOrACollectionThroughTheProtocol() {
        let subject = PassthroughSubject<Int, Never>()
        var received: [Int] = []
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { received.append($0) })
        subject.subscribe(sink)
        var set = Set<AnyCancellable>()
        store(sink, in: &set)
        #expect(set.count == 1)
        subject.send(1)
        set.removeAll()  // the token goes: the sink is cancelled
        subject.send(2)
        #expect(received == [1])

        var list: ContiguousArray<AnyCancellable> = []
        let second = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { received.append($0) })
        subject.subscribe(second)
        second.store(in: &list)
        subject.send(3)
        list = []
        subject.send(4)
        #expect(received == [1, 3])
    }

    /// Generic over `Cancellable`, as add-on code calls it.
    private func store(_ cancellable: some Cancellable, in set: inout Set<AnyCancellable>) {
        cancellable.store(in: &set)
    }
}

/// A publisher that finishes its subscribers when its owner lets it go (an add-on's relay).
private final class EndsWhenReleased: Publisher {
    typealias Output = Int
    typealias Failure = Never
    private let subject = PassthroughSubject<Int, Never>()

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        subject.subscribe(subscriber)
    }

    func send(_ value: Int) { subject.send(value) }

    deinit { subject.send(completion: .finished) }
}
