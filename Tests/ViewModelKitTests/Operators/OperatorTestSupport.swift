import Foundation
import Synchronization
import ViewModelKit

/// Renders recorded events as strings, for outputs (such as tuples) that are not `Equatable`.
func rendered<Input, Failure>(_ events: [Event<Input, Failure>]) -> [String] {
    events.map(\.description)
}

/// A publisher that logs every demand requested of it and every cancel, wrapping `upstream`.
struct RequestLogging<Upstream: Publisher>: Publisher {
    typealias Output = Upstream.Output
    typealias Failure = Upstream.Failure
    let upstream: Upstream
    let log: DemandLog

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        upstream.subscribe(
            AnySubscriber<Output, Failure>(
                receiveSubscription: { subscription in
                    subscriber.receive(subscription: LoggedSubscription(inner: subscription, log: log))
                },
                receiveValue: { subscriber.receive($0) },
                receiveCompletion: { subscriber.receive(completion: $0) }))
    }
}

final class LoggedSubscription: Subscription, @unchecked Sendable {
    let inner: Subscription
    let log: DemandLog
    init(inner: Subscription, log: DemandLog) {
        self.inner = inner
        self.log = log
    }
    func request(_ demand: Subscribers.Demand) {
        log.append("request \(demand)")
        inner.request(demand)
    }
    func cancel() {
        log.append("cancel")
        inner.cancel()
    }
}

extension Publisher {
    /// Wraps this publisher so the test can see what is requested of it.
    func logRequests(to log: DemandLog) -> RequestLogging<Self> {
        RequestLogging(upstream: self, log: log)
    }
}

/// Counts releases of `Token`s.
final class ReleaseCount: Sendable {
    private let count = Atomic<Int>(0)
    var value: Int { count.load(ordering: .relaxed) }
    func add() { count.add(1, ordering: .relaxed) }
}

/// A value that counts its release and may run `onRelease` from its `deinit`.
final class Token: @unchecked Sendable {
    let id: Int
    let released: ReleaseCount
    let onRelease: (() -> Void)?

    init(_ id: Int, _ released: ReleaseCount, onRelease: (() -> Void)? = nil) {
        self.id = id
        self.released = released
        self.onRelease = onRelease
    }

    deinit {
        released.add()
        onRelease?()
    }
}

/// A thread-safe counter for closures that are not `Sendable`-checked.
final class Counter: @unchecked Sendable {
    private let lock = NSLockLike()
    private var count = 0
    func next() -> Int {
        lock.withLock {
            count += 1
            return count
        }
    }
    var value: Int { lock.withLock { count } }
}

/// A tiny mutex for test helpers (an `NSLock`, which ThreadSanitizer understands on Linux).
final class NSLockLike: @unchecked Sendable {
    private let lock = NSLock()
    func withLock<T>(_ body: () -> T) -> T { lock.withLock(body) }
}

extension Publisher where Failure == Never {
    /// `setFailureType(to:)` without depending on the basic-operator branch.
    func setFailureTypeForTest<E: Error>(_: E.Type) -> AnyPublisher<Output, E> {
        AnyPublisher(NeverFailing<Self, E>(upstream: self))
    }
}

private struct NeverFailing<Upstream: Publisher, E: Error>: Publisher where Upstream.Failure == Never {
    typealias Output = Upstream.Output
    typealias Failure = E
    let upstream: Upstream
    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == E {
        upstream.subscribe(
            AnySubscriber<Output, Never>(
                receiveSubscription: { subscriber.receive(subscription: $0) },
                receiveValue: { subscriber.receive($0) },
                receiveCompletion: { _ in subscriber.receive(completion: .finished) }))
    }
}

/// A class-typed value counting the live instances.
final class Box: Sendable {
    let value: Int
    let live: LiveCount
    init(_ value: Int, _ live: LiveCount) {
        self.value = value
        self.live = live
        live.add(1)
    }
    deinit { live.add(-1) }
}

final class LiveCount: Sendable {
    private let count = Atomic<Int>(0)
    var value: Int { count.load(ordering: .relaxed) }
    func add(_ delta: Int) { count.add(delta, ordering: .relaxed) }
}

/// Asks for two values, records only their numbers (the boxes are dropped at once) and runs
/// `onValue` inside `receive(_:)` for re-entrant sends.
final class BoxSubscriber: Subscriber, @unchecked Sendable {
    private let mutex = NSLock()
    private var numbers: [Int] = []
    private var subscription: Subscription?
    var onValue: ((Box) -> Void)?
    var seen: [Int] { mutex.withLock { numbers } }
    func receive(subscription: Subscription) {
        mutex.withLock { self.subscription = subscription }
        subscription.request(.max(2))
    }
    func receive(_ input: Box) -> Subscribers.Demand {
        mutex.withLock { numbers.append(input.value) }
        onValue?(input)
        return .none
    }
    func receive(completion: Subscribers.Completion<Never>) {}
    func request(_ demand: Subscribers.Demand) { mutex.withLock { subscription }?.request(demand) }
    func cancel() {
        let held = mutex.withLock { () -> Subscription? in
            defer { subscription = nil }
            return subscription
        }
        held?.cancel()
    }
}
