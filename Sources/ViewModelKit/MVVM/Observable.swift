/// A read-only, observable snapshot of a stream: an `ObservableObject` whose `value` follows a
/// publisher that cannot fail (the seed article's `Observable<Podcast>`).
///
/// - For each upstream value it sends `objectWillChange`, then stores the value (Combine's
///   will-change order), then reports the store on the publisher's internal did-change channel,
///   so `@ViewModel` and `observe(on:)` subscribers see it after the change, even when the
///   value arrives on another thread while the observer's scheduler is running.
/// - Member access reads through to the value: `podcast.title` is `podcast.value.title`.
/// - Threads: upstream values may arrive on any thread; `value` is safe to read from any thread
///   (a lock guards it). The last value stays after the upstream completes.
/// - Lifetime: it holds its upstream subscription and cancels it when deallocated.
/// - Name: it coexists with Swift's `Observation.Observable` protocol; in a file that imports
///   Observation, write `ViewModelKit.Observable<Value>` and `Observation.Observable`.
@dynamicMemberLookup
public final class Observable<Value>: ObservableObject, @unchecked Sendable {
    /// Fires before each new value is stored.
    public let objectWillChange = ObservableObjectPublisher()

    // Guards `current` and `upstream`; never held while sending.
    private let lock = Lock()
    private var current: Value
    private var upstream: Subscription?

    /// The latest value: `initialValue` until the publisher emits. Thread-safe.
    public var value: Value {
        lock.withLock { current }
    }

    /// Starts at `initialValue` and follows `publisher` (subscribed at once, unlimited demand).
    public init<P: Publisher>(initialValue: Value, _ publisher: P) where P.Output == Value, P.Failure == Never {
        current = initialValue
        publisher.subscribe(Follower(self))
    }

    /// A constant: `value` never changes.
    public convenience init(_ value: Value) {
        self.init(initialValue: value, Empty<Value, Never>())
    }

    deinit {
        let subscription = lock.withLock { upstream }
        subscription?.cancel()
    }

    /// Reads a property of the current value.
    public subscript<T>(dynamicMember keyPath: KeyPath<Value, T>) -> T {
        value[keyPath: keyPath]
    }

    fileprivate func attach(_ subscription: Subscription) -> Bool {
        lock.withLock {
            guard upstream == nil else { return false }
            upstream = subscription
            return true
        }
    }

    fileprivate func store(_ newValue: Value) {
        objectWillChange.send()
        let old = lock.withLock { () -> Value in
            defer { current = newValue }
            return current
        }
        objectWillChange.sendDidChange()  // stored: an update racing the will-change is redone
        withExtendedLifetime(old) {}  // the old value is released outside the lock
    }

    fileprivate func detach() {
        let old = lock.withLock { () -> Subscription? in
            defer { upstream = nil }
            return upstream
        }
        withExtendedLifetime(old) {}
    }
}

/// The subscriber an `Observable` gives its upstream; it holds the `Observable` weakly so the
/// upstream never keeps it alive.
private final class Follower<Value>: Subscriber, @unchecked Sendable {
    typealias Input = Value
    typealias Failure = Never

    private weak var target: Observable<Value>?

    init(_ target: Observable<Value>) {
        self.target = target
    }

    func receive(subscription: Subscription) {
        guard let target, target.attach(subscription) else {
            subscription.cancel()
            return
        }
        subscription.request(.unlimited)
    }

    func receive(_ input: Value) -> Subscribers.Demand {
        target?.store(input)
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {
        target?.detach()
    }
}

extension CurrentValueSubject where Failure == Never {
    /// An `Observable` whose `value` is this subject's value: it starts at `value` and follows
    /// every later `send`. The subject is retained through the subscription.
    public func asObservable() -> Observable<Output> {
        Observable(initialValue: value, self)
    }
}
