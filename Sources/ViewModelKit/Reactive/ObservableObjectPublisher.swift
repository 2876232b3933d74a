/// The publisher that announces an object is about to change, as Combine's
/// `ObservableObjectPublisher`: it emits `()` before each change and never fails.
///
/// - `send()` is safe from any thread and delivers on the calling thread, with the same rules as
///   `PassthroughSubject` (calls into one subscriber serialised, re-entrant sends depth-first,
///   values dropped for a subscriber without demand).
/// - Lifetime: it dies with its object (the default one is owned by the object's `@Published`
///   properties; a declared one by the object). When it is deinitialised, its current subscribers
///   receive `.finished` on the thread that released it. Combine's never completes; ours does so
///   that `observe(on:)` notices an observed object's death at once. (The default publisher of
///   an object with no `@Published` property lives in a side table that is pruned lazily, so
///   its completion can come later than the object's death.)
public final class ObservableObjectPublisher: Publisher, @unchecked Sendable {
    /// Emits `()`.
    public typealias Output = Void
    /// Never fails.
    public typealias Failure = Never

    private let core = SubjectCore<Void, Never>(replaying: nil)

    /// Creates a publisher with no subscribers.
    public init() {}

    deinit {
        core.send(completion: .finished)
    }

    /// Attaches `subscriber`; it receives `()` for each later `send()` while it has demand, and
    /// `.finished` when this publisher is deinitialised.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Void, S.Failure == Never {
        core.attach(subscriber, name: "ObservableObjectPublisher")
    }

    /// Announces a change to every subscriber, on the calling thread.
    @inline(__always)
    public func send() {
        core.send(())
    }
}
