/// A subject that broadcasts values to its current subscribers, as Combine's `PassthroughSubject`.
///
/// - It keeps no value: a subscriber sees only values sent after it subscribed, and only while it
///   has outstanding demand (a value sent while a subscriber has no demand is dropped for it).
/// - `send` is safe from any thread. Calls into one subscriber are serialised: a send from
///   another thread waits while that subscriber is in `receive`, while a send made from inside
///   `receive` (same thread) is delivered at once, depth-first, without deadlock.
/// - After `send(completion:)` later sends are ignored and new subscribers get
///   `Subscriptions.empty` and the completion at once.
/// - `request` and `cancel` on its subscriptions are safe from any thread. A subscription keeps
///   the subject alive until it is cancelled or completed.
public final class PassthroughSubject<Output, Failure: Error>: Subject, @unchecked Sendable {
    @usableFromInline let core = SubjectCore<Output, Failure>(replaying: nil, name: "PassthroughSubject")

    /// Creates a subject with no subscribers.
    public init() {}

    /// Attaches `subscriber`; see the type's documentation for what it receives.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        core.attach(subscriber)
    }

    /// Delivers `input` to every subscriber with outstanding demand, on the calling thread.
    ///
    /// Inlinable: a client's build specialises the loop over the subscribers for its `Output`;
    /// the lock and the per-subscriber state stay out of line (docs/DESIGN-NOTES.md).
    @inlinable
    public func send(_ input: Output) {
        core.sendWithoutStoring(input)
    }

    /// Completes every subscriber, on the calling thread. A second completion is ignored.
    public func send(completion: Subscribers.Completion<Failure>) {
        core.send(completion: completion)
    }

    /// Keeps an upstream `subscription` (from `publisher.subscribe(subject)`) and requests
    /// `.unlimited` from it once any subscriber has requested demand (at once if one already
    /// has), as Combine's subjects do.
    public func send(subscription: Subscription) {
        core.send(subscription: subscription)
    }
}
