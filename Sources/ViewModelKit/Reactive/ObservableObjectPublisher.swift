/// The publisher that announces an object is about to change, as Combine's
/// `ObservableObjectPublisher`: it emits `()` before each change and never fails or finishes.
///
/// `send()` is safe from any thread and delivers on the calling thread, with the same rules as
/// `PassthroughSubject` (calls into one subscriber serialised, re-entrant sends depth-first, values
/// dropped for a subscriber without demand).
public final class ObservableObjectPublisher: Publisher, @unchecked Sendable {
    /// Emits `()`.
    public typealias Output = Void
    /// Never fails.
    public typealias Failure = Never

    private let core = SubjectCore<Void, Never>(replaying: nil)

    /// Creates a publisher with no subscribers.
    public init() {}

    /// Attaches `subscriber`; it receives `()` for each later `send()` while it has demand.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Void, S.Failure == Never {
        core.attach(subscriber, name: "ObservableObjectPublisher")
    }

    /// Announces a change to every subscriber, on the calling thread.
    @inline(__always)
    public func send() {
        core.send(())
    }
}
