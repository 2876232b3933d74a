import Testing
import ViewModelKit

/// Combine's operators let their downstream go once the stream ends (completion or cancel), so a
/// subscriber that keeps its `Subscription` for good (as many hand-written ones do) forms no
/// lasting cycle with the operator's subscription. One operator of each family (each kind of
/// subscription the operators are built on), each way a stream ends.
@Suite struct ReleaseOnEndTests {
    /// A subscriber that keeps its subscription strongly, forever, and asks for everything.
    final class KeepingSubscriber<Input, Failure: Error>: Subscriber, @unchecked Sendable {
        var subscription: Subscription?

        func receive(subscription: Subscription) {
            self.subscription = subscription
            subscription.request(.unlimited)
        }

        func receive(_ input: Input) -> Subscribers.Demand { .none }
        func receive(completion: Subscribers.Completion<Failure>) {}
    }

    enum End: String, CaseIterable, CustomTestStringConvertible {
        case finished, failure, cancel
        var testDescription: String { rawValue }
    }

    /// Each family's representative, named by its operator.
    enum Family: String, CaseIterable, CustomTestStringConvertible {
        // Their own gate (SubscriptionGate).
        case removeDuplicates
        // UpstreamRelay and StepRelay.
        case dropFirst, output, tryMap, handleEvents, replaceEmpty, collectByCount, buffer, measureInterval
        case tryRemoveDuplicates, tryFilter, prefixWhile, dropWhile
        case prefixUntilOutput, dropUntilOutput
        // ReduceCore.
        case reduce, collect, count
        // RelayCore.
        case `catch`, append, retry
        // ScheduledRelay.
        case receiveOn, debounce, delay
        // CombiningCore.
        case combineLatest, zip
        // Pass-through (the upstream's subscription reaches the subscriber).
        case map
        var testDescription: String { rawValue }
    }

    /// Subscribes a keeping subscriber to `build(subject)`, ends the stream as `end` says, and
    /// returns whether the subscriber was released once nothing else held it.
    private func released<P: Publisher>(
        _ end: End, _ build: (PassthroughSubject<Int, TestError>) -> P
    ) -> Bool {
        let subject = PassthroughSubject<Int, TestError>()
        weak var weakSubscriber: KeepingSubscriber<P.Output, P.Failure>?
        do {
            let subscriber = KeepingSubscriber<P.Output, P.Failure>()
            weakSubscriber = subscriber
            build(subject).subscribe(subscriber)
            subject.send(1)
            #expect(subscriber.subscription != nil)
            switch end {
            case .finished: subject.send(completion: .finished)
            case .failure: subject.send(completion: .failure(TestError()))
            case .cancel: subscriber.subscription?.cancel()
            }
        }
        return weakSubscriber == nil
    }

    @Test(arguments: Family.allCases, End.allCases)
    func theSubscriberIsReleasedAtTheEnd(_ family: Family, _ end: End) {
        let scheduler = ImmediateScheduler.shared
        let other = PassthroughSubject<Int, TestError>()
        let result: Bool
        switch family {
        case .removeDuplicates: result = released(end) { $0.removeDuplicates() }
        case .dropFirst: result = released(end) { $0.dropFirst() }
        case .output: result = released(end) { $0.output(in: 0..<5) }
        case .tryMap: result = released(end) { $0.tryMap { $0 } }
        case .handleEvents: result = released(end) { $0.handleEvents(receiveOutput: { _ in }) }
        case .replaceEmpty: result = released(end) { $0.replaceEmpty(with: 0) }
        case .collectByCount: result = released(end) { $0.collect(2) }
        case .buffer: result = released(end) { $0.buffer(size: 2, prefetch: .byRequest, whenFull: .dropOldest) }
        case .measureInterval: result = released(end) { $0.measureInterval(using: scheduler) }
        case .tryRemoveDuplicates: result = released(end) { $0.tryRemoveDuplicates { $0 == $1 } }
        case .tryFilter: result = released(end) { $0.tryFilter { _ in true } }
        case .prefixWhile: result = released(end) { $0.prefix { _ in true } }
        case .dropWhile: result = released(end) { $0.drop { _ in true } }
        case .prefixUntilOutput: result = released(end) { $0.prefix(untilOutputFrom: other) }
        case .dropUntilOutput: result = released(end) { $0.drop(untilOutputFrom: other) }
        case .reduce: result = released(end) { $0.reduce(0, +) }
        case .collect: result = released(end) { $0.collect() }
        case .count: result = released(end) { $0.count() }
        case .catch: result = released(end) { $0.catch { _ in Just(0).setFailureType(to: TestError.self) } }
        case .append: result = released(end) { $0.append(7) }
        case .retry: result = released(end) { $0.retry(0) }
        case .receiveOn: result = released(end) { $0.receive(on: scheduler) }
        case .debounce: result = released(end) { $0.debounce(for: .zero, scheduler: scheduler) }
        case .delay: result = released(end) { $0.delay(for: .zero, scheduler: scheduler) }
        case .combineLatest: result = released(end) { $0.combineLatest(Just(0).setFailureType(to: TestError.self)) }
        case .zip: result = released(end) { $0.zip(Just(0).setFailureType(to: TestError.self)) }
        case .map: result = released(end) { $0.map { $0 } }
        }
        #expect(result, "\(family) keeps its subscriber after \(end)")
        withExtendedLifetime(other) {}
    }
}
