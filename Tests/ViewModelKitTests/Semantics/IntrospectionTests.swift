import Testing
import ViewModelKit
import ViewModelKitSchedulers

/// Combine's subscribers and operator subscriptions describe themselves with fixed names, show
/// the same name in a playground and reflect named children, as OpenCombine's Combine-validated
/// tests record (`SinkTests`, `AssignTests`, `MapTests`, `FilterTests`, `ReduceTests`,
/// `FirstTests`, `CollectTests`, …). Printing or dumping a subscription shows these.
@Suite struct IntrospectionTests {
    /// What `print`, a playground and `dump` show of `object`.
    struct Shown: Equatable, CustomStringConvertible {
        var description: String
        var playground: String?
        var children: [String?]

        init(_ description: String, playground: String?, children: [String?]) {
            self.description = description
            self.playground = playground
            self.children = children
        }

        init(of object: Any) {
            description = (object as? CustomStringConvertible)?.description ?? "<none>"
            playground = (object as? CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String
            children = (object as? CustomReflectable).map { $0.customMirror.children.map(\.label) } ?? ["<no mirror>"]
        }
    }

    /// The subscriber an operator hands its upstream, and the subscription it hands downstream.
    func introspect<UpstreamFailure: Error, P: Publisher>(
        _ make: (Upstream<UpstreamFailure>) -> P
    ) -> (subscriber: Shown, subscription: Shown?) {
        let upstream = Upstream<UpstreamFailure>()
        let downstream = Downstream<P.Output, P.Failure>()
        defer { downstream.detach() }
        make(upstream).subscribe(downstream)
        // Unwrapped: an `Optional` in an `Any` would answer the casts itself.
        let subscriber = Shown(of: upstream.subscriber.map { $0 as Any } ?? "no subscriber")
        upstream.sendSubscription()
        return (subscriber, downstream.subscription.map { Shown(of: $0 as Any) })
    }

    @Test func sinkIsNamedSinkEverywhereAndReflectsNoChildren() {
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
        #expect(Shown(of: sink) == Shown("Sink", playground: "Sink", children: []))
    }

    @Test func assignNamesItsRootAndReflectsObjectKeyPathAndStatus() {
        final class Target { var value = 0 }
        let target = Target()
        let assign = Subscribers.Assign(object: target, keyPath: \Target.value)
        #expect(
            Shown(of: assign)
                == Shown("Assign Target.", playground: "Assign Target.", children: ["object", "keyPath", "status"]))
        let children = Array(Mirror(reflecting: assign).children)
        #expect(children[0].value as? Target === target)
        #expect(children[1].value as? ReferenceWritableKeyPath<Target, Int> == \Target.value)
    }

    @Test func passThroughOperatorsShowTheirNameAndAnEmptyMirror() {
        let map = introspect { (upstream: Upstream<TestError>) in upstream.map { $0 * 2 } }
        #expect(map.subscriber == Shown("Map", playground: "Map", children: []))
        let filter = introspect { (upstream: Upstream<TestError>) in upstream.filter { $0 > 0 } }
        #expect(filter.subscriber == Shown("Filter", playground: "Filter", children: []))
        let breakpoint = introspect { (upstream: Upstream<TestError>) in upstream.breakpointOnError() }
        #expect(breakpoint.subscriber == Shown("Breakpoint", playground: "Breakpoint", children: []))
        // The downstream holds the upstream's own subscription, not the breakpoint.
        #expect(breakpoint.subscription?.description == String(describing: Subscriptions.empty))
    }

    @Test func reducingOperatorsShowTheirNameAndReflectDownstreamResultInitialStatus() {
        let reduceLike: [String?] = ["downstream", "result", "initial", "status"]
        let cases: [(String, (Upstream<TestError>) -> AnyPublisher<String, TestError>)] = [
            ("Reduce", { $0.reduce(0, +).map(String.init).eraseToAnyPublisher() }),
            ("First", { $0.first().map(String.init).eraseToAnyPublisher() }),
            ("TryFirst", { $0.first { $0 > 2 }.map(String.init).eraseToAnyPublisher() }),
            ("Last", { $0.last().map(String.init).eraseToAnyPublisher() }),
            ("LastWhere", { $0.last { $0 > 2 }.map(String.init).eraseToAnyPublisher() }),
            ("Count", { $0.count().map(String.init).eraseToAnyPublisher() }),
            ("Comparison", { $0.min().map(String.init).eraseToAnyPublisher() }),
            ("Contains", { $0.contains(3).map(String.init).eraseToAnyPublisher() }),
            ("ContainsWhere", { $0.contains { $0 > 3 }.map(String.init).eraseToAnyPublisher() }),
            ("AllSatisfy", { $0.allSatisfy { $0 > 3 }.map(String.init).eraseToAnyPublisher() }),
        ]
        for (name, make) in cases {
            let shown = introspect(make)
            #expect(shown.subscriber == Shown(name, playground: name, children: reduceLike), "\(name)")
            #expect(shown.subscription == shown.subscriber, "\(name): the same object both ways")
        }
        let tried = introspect { (upstream: Upstream<TestError>) in upstream.tryFirst { $0 > 2 } }
        #expect(tried.subscriber == Shown("TryFirstWhere", playground: "TryFirstWhere", children: reduceLike))
    }

    /// The name a publisher's subscription shows downstream.
    func subscriptionShown<P: Publisher>(_ publisher: P) -> Shown? {
        let downstream = Downstream<P.Output, P.Failure>()
        defer { downstream.detach() }
        publisher.subscribe(downstream)
        return downstream.subscription.map { Shown(of: $0 as Any) }
    }

    @Test func valuePublishersShowJustOptionalOrOnceWithTheValueAsTheirOneChild() throws {
        #expect(subscriptionShown(Just(42)) == Shown("Just", playground: "Just", children: [nil]))
        #expect(subscriptionShown(Optional(42).publisher) == Shown("Optional", playground: "Optional", children: [nil]))
        let once = Result<Int, TestError>.success(42).publisher
        #expect(subscriptionShown(once) == Shown("Once", playground: "Once", children: [nil]))
        let downstream = Downstream<Int, Never>()
        defer { downstream.detach() }
        Just(42).subscribe(downstream)
        let given = try #require(downstream.subscription)
        let subscription = try #require(given as? CustomReflectable)
        #expect(subscription.customMirror.children.first?.value as? Int == 42)
    }

    @Test func aSequencesSubscriptionIsNamedAfterTheSequenceAndReflectsIt() throws {
        #expect(subscriptionShown((1...5).publisher) == Shown("1...5", playground: "1...5", children: ["sequence"]))
        #expect(
            subscriptionShown([1, 2, 3].publisher)
                == Shown("[1, 2, 3]", playground: "[1, 2, 3]", children: ["sequence"]))
        let downstream = Downstream<Int, Never>()
        defer { downstream.detach() }
        (1...5).publisher.subscribe(downstream)
        let given = try #require(downstream.subscription)
        let subscription = try #require(given as? CustomReflectable)
        #expect(subscription.customMirror.children.first?.value as? ClosedRange<Int> == 1...5)
    }

    @Test func subjectsAndFutureShowTheirNames() throws {
        let passthrough = try #require(subscriptionShown(PassthroughSubject<Int, Never>()))
        #expect(passthrough.description == "PassthroughSubject")
        #expect(passthrough.playground == "PassthroughSubject")
        let current = try #require(subscriptionShown(CurrentValueSubject<Int, Never>(0)))
        #expect(current.playground == "CurrentValueSubject")
        let future = Future<Int, Never> { _ in }
        #expect(
            subscriptionShown(future)
                == Shown("Future", playground: "Future", children: ["parent", "downstream", "hasAnyDemand", "subject"]))
    }

    @Test func combiningFlatteningRelayingAndSchedulingOperatorsShowCombinesNames() {
        let subject = PassthroughSubject<Int, Never>()
        let failing = PassthroughSubject<Int, TestError>()
        let immediate = ImmediateScheduler.shared
        let named: [(String, Shown?)] = [
            ("Merge", subscriptionShown(subject.merge(with: subject))),
            ("FlatMap", subscriptionShown(subject.flatMap { Just($0) })),
            ("SwitchToLatest", subscriptionShown(subject.map { Just($0) }.switchToLatest())),
            ("CombineLatest", subscriptionShown(subject.combineLatest(subject))),
            ("Zip", subscriptionShown(subject.zip(subject))),
            ("Retry", subscriptionShown(subject.retry(1))),
            ("Catch", subscriptionShown(failing.catch { _ in Just(1) })),
            ("TryCatch", subscriptionShown(failing.tryCatch { _ in Just(1) })),
            ("Concatenate", subscriptionShown(subject.append(1))),
            ("ReceiveOn", subscriptionShown(subject.receive(on: immediate))),
            ("SubscribeOn", subscriptionShown(subject.subscribe(on: immediate))),
            ("Throttle", subscriptionShown(subject.throttle(for: .seconds(1), scheduler: immediate, latest: true))),
            ("Delay", subscriptionShown(subject.delay(for: .seconds(1), scheduler: immediate))),
            ("Timeout", subscriptionShown(subject.timeout(.seconds(1), scheduler: immediate))),
        ]
        for (name, shown) in named {
            #expect(shown == Shown(name, playground: name, children: []), "\(name)")
        }
        // Debounce reflects children of its own (`debounceReflectsDownstreamItsDemandAndTheWaitingValue`).
        #expect(subscriptionShown(subject.debounce(for: .seconds(1), scheduler: immediate))?.description == "Debounce")
    }

    /// The value of `object`'s mirror child `label`, as `print` shows it.
    func child(_ object: Any, _ label: String) -> String? {
        guard let reflectable = object as? CustomReflectable else { return nil }
        return reflectable.customMirror.children.first { $0.label == label }.map { String(describing: $0.value) }
    }

    @Test func collectByCountReflectsDownstreamUpstreamSubscriptionBufferAndCount() {
        let upstream = Upstream<TestError>()
        let downstream = Downstream<[Int], TestError>()
        defer { downstream.detach() }
        upstream.collect(53).subscribe(downstream)
        upstream.sendSubscription()
        let collect: Any = upstream.subscriber.map { $0 as Any } ?? "no subscriber"
        #expect(
            Shown(of: collect)
                == Shown(
                    "CollectByCount", playground: "CollectByCount",
                    children: ["downstream", "upstreamSubscription", "buffer", "count"]))
        #expect(child(collect, "count") == "53")
        #expect(child(collect, "buffer") == "[]")
        _ = upstream.send(4)
        #expect(child(collect, "buffer") == "[4]")
        #expect(child(collect, "downstream")?.contains("Downstream") == true)
        #expect((downstream.subscription as AnyObject?) === (collect as AnyObject))
    }

    @Test func debounceReflectsDownstreamItsDemandAndTheWaitingValue() {
        let scheduler = TestScheduler()
        let upstream = Upstream<TestError>()
        let downstream = Downstream<Int, TestError>()
        defer { downstream.detach() }
        upstream.debounce(for: .nanoseconds(13), scheduler: scheduler).subscribe(downstream)
        upstream.sendSubscription()
        let debounce: Any = upstream.subscriber.map { $0 as Any } ?? "no subscriber"
        #expect(
            Shown(of: debounce)
                == Shown(
                    "Debounce", playground: "Debounce", children: ["downstream", "downstreamDemand", "currentValue"]))
        #expect(child(debounce, "downstreamDemand") == "max(0)")
        #expect(child(debounce, "currentValue") == "nil")
        downstream.subscription?.request(.max(2))
        _ = upstream.send(7)
        #expect(child(debounce, "downstreamDemand") == "max(2)")
        #expect(child(debounce, "currentValue") == "Optional(7)")
    }

    @Test func assertNoFailureIsAPassThroughNamedAfterItselfReflectingFileLineAndPrefix() {
        let upstream = Upstream<Never>()
        let downstream = Downstream<Int, Never>()
        defer { downstream.detach() }
        upstream.assertNoFailure("PREFIX", file: "SomeFile.swift", line: 1987).subscribe(downstream)
        upstream.sendSubscription()
        let subscriber: Any = upstream.subscriber.map { $0 as Any } ?? "no subscriber"
        #expect(
            Shown(of: subscriber)
                == Shown("AssertNoFailure", playground: "AssertNoFailure", children: ["file", "line", "prefix"]))
        #expect(child(subscriber, "file") == "SomeFile.swift")
        #expect(child(subscriber, "line") == "1987")
        #expect(child(subscriber, "prefix") == "PREFIX")
        // Pass-through: the downstream holds the upstream's own subscription.
        #expect(downstream.subscription.map { String(describing: $0) } == String(describing: Subscriptions.empty))
    }

    @Test func aSubjectsSubscriptionReflectsParentDownstreamDemandAndSubject() throws {
        let passthrough = PassthroughSubject<Int, Never>()
        let downstream = Downstream<Int, Never>()
        defer { downstream.detach() }
        passthrough.subscribe(downstream)
        let subscription = try #require(downstream.subscription)
        #expect(
            Shown(of: subscription)
                == Shown(
                    "PassthroughSubject", playground: "PassthroughSubject",
                    children: ["parent", "downstream", "demand", "subject"]))
        #expect(child(subscription, "parent") == "PassthroughSubject")
        #expect(child(subscription, "subject") == "PassthroughSubject")
        #expect(child(subscription, "demand") == "max(0)")
        subscription.request(.max(3))
        #expect(child(subscription, "demand") == "max(3)")

        let current = CurrentValueSubject<Int, Never>(42)
        let sink = current.sink { _ in }
        defer { sink.cancel() }
        let other = Downstream<Int, Never>()
        defer { other.detach() }
        current.subscribe(other)
        let currentSubscription = try #require(other.subscription)
        #expect(child(currentSubscription, "parent") == "CurrentValueSubject")
        #expect(child(currentSubscription, "demand") == "max(0)")
    }

    @Test func collectReflectsTheCountOfWhatItHolds() {
        let upstream = Upstream<TestError>()
        let downstream = Downstream<[Int], TestError>()
        defer { downstream.detach() }
        upstream.collect().subscribe(downstream)
        upstream.sendSubscription()
        _ = upstream.send(4)
        _ = upstream.send(5)
        let collect = upstream.subscriber.map { $0 as Any } ?? "no subscriber"
        #expect(Shown(of: collect) == Shown("Collect", playground: "Collect", children: ["count"]))
        let count = (collect as? CustomReflectable)?.customMirror.children.first?.value as? Int
        #expect(count == 2)
    }
}

/// A publisher that keeps the subscriber it is given as it is (not erased), for introspection.
final class Upstream<Failure: Error>: Publisher, @unchecked Sendable {
    typealias Output = Int
    private(set) var subscriber: (any Subscriber)?
    private var deliver: ((Int) -> Subscribers.Demand)?
    private var subscribe: (() -> Void)?

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Failure {
        self.subscriber = subscriber
        deliver = { subscriber.receive($0) }
        subscribe = { subscriber.receive(subscription: Subscriptions.empty) }
    }

    func sendSubscription() { subscribe?() }
    func send(_ value: Int) -> Subscribers.Demand { deliver?(value) ?? .none }
}

/// A subscriber that keeps the subscription it is given, as it is, and asks for nothing.
final class Downstream<Input, Failure: Error>: Subscriber, @unchecked Sendable {
    private(set) var subscription: (any Subscription)?
    func receive(subscription: any Subscription) { self.subscription = subscription }
    func receive(_ input: Input) -> Subscribers.Demand { .none }
    func receive(completion: Subscribers.Completion<Failure>) {}

    /// Cancels and forgets the subscription: the stream never ends by itself, and the
    /// subscription keeps this subscriber (a cycle, in Combine too, until the cancel).
    func detach() {
        let kept = subscription
        subscription = nil
        kept?.cancel()
    }
}
