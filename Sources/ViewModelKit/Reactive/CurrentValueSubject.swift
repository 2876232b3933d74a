/// A subject that wraps a single value and publishes each new one, as Combine's
/// `CurrentValueSubject`.
///
/// - `send(_:)` (and setting `value`) *stores first, then delivers*: reading `value` inside a
///   subscriber's `receive` gives the new value.
/// - A subscriber gets the current value as soon as it has demand, then every later value while
///   it has demand. If it missed values for lack of demand, its next request delivers the current
///   value at once (as Combine does).
/// - Threading is that of `PassthroughSubject`: `send` from any thread, calls into one subscriber
///   serialised, re-entrant sends delivered depth-first on the same thread.
/// - After completion later sends are ignored; setting `value` still stores it (as Combine's) but
///   delivers nothing.
public final class CurrentValueSubject<Output, Failure: Error>: Subject, @unchecked Sendable {
    @usableFromInline let core: SubjectCore<Output, Failure>

    /// Creates a subject holding `value`.
    public init(_ value: Output) {
        core = SubjectCore(replaying: value, name: "CurrentValueSubject")
    }

    /// The current value. Setting it is `send(_:)`, except that after completion it still stores
    /// (as Combine's; `send(_:)` after completion stores nothing). Thread-safe.
    public var value: Output {
        get { core.currentValue }
        set { core.store(newValue) }
    }

    /// Attaches `subscriber`; it receives the current value on its first demand. Inlinable, so
    /// that a client builds the relay to its subscriber specialised.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        core.attach(subscriber)
    }

    /// Stores `input`, then delivers it to every subscriber with outstanding demand.
    ///
    /// Inlinable as `PassthroughSubject.send`: the store (under the lock) and the per-subscriber
    /// state stay out of line (docs/DESIGN-NOTES.md).
    @inlinable
    public func send(_ input: Output) {
        core.storeAndSendInline(input)
    }

    /// Completes every subscriber, on the calling thread. A second completion is ignored.
    public func send(completion: Subscribers.Completion<Failure>) {
        core.send(completion: completion)
    }

    /// Keeps an upstream `subscription` and requests `.unlimited` from it at once, as Combine's
    /// `CurrentValueSubject` does (it holds a value whether or not anyone subscribes, so it
    /// takes upstream's values as they come; `PassthroughSubject` waits for demand instead).
    public func send(subscription: Subscription) {
        core.send(subscription: subscription, requestingAtOnce: true)
    }
}
