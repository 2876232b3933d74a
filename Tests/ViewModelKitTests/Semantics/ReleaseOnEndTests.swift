import Testing
import ViewModelKit

/// What an operator's subscription does with its downstream once the stream ends, as Combine was
/// recorded to (OpenCombine's lifecycle tests, run against Combine). Combine's operators with a
/// subscription of their own keep their downstream as long as that subscription lives: a
/// subscriber that keeps its `Subscription` after a failure, a `.finished` or a cancel is kept
/// with it (a cycle, as in Combine); one that lets it go at the end, as `Sink` does, is released.
/// A pass-through operator (`map`) hands down the upstream's own subscription, which lets its
/// subscriber go at the end. One operator of each family (each kind of subscription the
/// operators are built on), each way a stream ends. `retry` and `throttle` let their downstream
/// go at the end, as recorded; `combineLatest` and `zip` (not recorded) do too.
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
    enum Family: String, CaseIterable, CustomTestStringConvertible, Hashable {
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
        case receiveOn, subscribeOn, debounce, delay, throttle
        // MergeCore.
        case merge
        // CombiningCore.
        case combineLatest, zip
        // Pass-through (the upstream's subscription reaches the subscriber).
        case map
        var testDescription: String { rawValue }
    }

    /// Subscribes a keeping subscriber to `build(subject)`, ends the stream as `end` says, and
    /// returns whether the subscriber was released once nothing else held it. A subscriber kept
    /// is then made to let its subscription go, and must be released at that (so the cycle was
    /// the only thing holding it, and the test leaks nothing).
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
        let result = weakSubscriber == nil
        weakSubscriber?.subscription = nil
        #expect(weakSubscriber == nil, "the subscriber is held by nothing but its subscription")
        return result
    }

    /// The families whose subscription keeps its downstream after the end, as recorded.
    static let keeping: Set<Family> = [
        .removeDuplicates, .dropFirst, .output, .tryMap, .handleEvents, .replaceEmpty, .collectByCount,
        .buffer, .measureInterval, .tryRemoveDuplicates, .tryFilter, .prefixWhile, .dropWhile,
        .prefixUntilOutput, .dropUntilOutput, .reduce, .collect, .count, .catch, .append, .receiveOn,
        .subscribeOn, .debounce, .delay, .merge,
    ]

    @Test(arguments: Family.allCases, End.allCases)
    func theSubscriberIsKeptAsCombineKeepsIt(_ family: Family, _ end: End) {
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
        case .subscribeOn: result = released(end) { $0.subscribe(on: scheduler) }
        case .throttle: result = released(end) { $0.throttle(for: .zero, scheduler: scheduler, latest: true) }
        case .merge: result = released(end) { $0.merge(with: Empty<Int, TestError>()) }
        case .debounce: result = released(end) { $0.debounce(for: .zero, scheduler: scheduler) }
        case .delay: result = released(end) { $0.delay(for: .zero, scheduler: scheduler) }
        case .combineLatest: result = released(end) { $0.combineLatest(Just(0).setFailureType(to: TestError.self)) }
        case .zip: result = released(end) { $0.zip(Just(0).setFailureType(to: TestError.self)) }
        case .map: result = released(end) { $0.map { $0 } }
        }
        if Self.keeping.contains(family) {
            #expect(!result, "\(family) keeps its subscriber after \(end), as Combine's")
        } else {
            #expect(result, "\(family) lets its subscriber go after \(end)")
        }
        withExtendedLifetime(other) {}
    }

    /// A subscriber that lets its subscription go at the end, as `Sink` does.
    final class LettingGoSubscriber: Subscriber, @unchecked Sendable {
        var subscription: Subscription?

        func receive(subscription: Subscription) {
            self.subscription = subscription
            subscription.request(.unlimited)
        }

        func receive(_ input: String) -> Subscribers.Demand { .none }
        func receive(completion: Subscribers.Completion<any Error>) { subscription = nil }
    }

    /// Combine releases a subscriber that lets its subscription go at the end (its lifecycle
    /// tests' fourth case): no operator keeps it then, whichever way the stream ends.
    @Test(arguments: [End.finished, .failure, .cancel])
    func aSubscriberThatLetsItsSubscriptionGoIsReleased(_ end: End) {
        let scheduler = ImmediateScheduler.shared
        typealias Build = (PassthroughSubject<Int, TestError>) -> AnyPublisher<String, any Error>
        func erased<P: Publisher>(_ build: @escaping (PassthroughSubject<Int, TestError>) -> P) -> Build {
            { build($0).map { "\($0)" }.mapError { $0 as any Error }.eraseToAnyPublisher() }
        }
        let families: [(String, Build)] = [
            ("removeDuplicates", erased { $0.removeDuplicates() }),
            ("dropFirst", erased { $0.dropFirst() }),
            ("tryMap", erased { $0.tryMap { $0 } }),
            ("handleEvents", erased { $0.handleEvents() }),
            ("collectByCount", erased { $0.collect(2) }),
            ("measureInterval", erased { $0.measureInterval(using: scheduler) }),
            ("tryFilter", erased { $0.tryFilter { _ in true } }),
            ("dropUntilOutput", erased { $0.drop(untilOutputFrom: Just(0).setFailureType(to: TestError.self)) }),
            ("reduce", erased { $0.reduce(0, +) }),
            ("collect", erased { $0.collect() }),
        ]
        for (name, build) in families {
            let subject = PassthroughSubject<Int, TestError>()
            weak var weakSubscriber: LettingGoSubscriber?
            do {
                let subscriber = LettingGoSubscriber()
                weakSubscriber = subscriber
                build(subject).subscribe(subscriber)
                subject.send(1)
                switch end {
                case .finished: subject.send(completion: .finished)
                case .failure: subject.send(completion: .failure(TestError()))
                case .cancel:
                    subscriber.subscription?.cancel()
                    subscriber.subscription = nil
                }
            }
            #expect(weakSubscriber == nil, "\(name) after \(end)")
        }
    }
}
