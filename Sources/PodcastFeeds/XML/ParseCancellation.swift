import Synchronization

/// Stops a running `FeedParser.parse` from another thread: the parser checks it at every SAX
/// event (element start and end, each text run) and, once it is cancelled, calls libxml2's
/// `xmlStopParser`, so the parse ends within one event instead of running to the end of the
/// document; it then throws `FeedParseError.stopped`. The daemon cancels it when a parse's budget
/// (`PodcastDaemon.Configuration.parseBudget`) runs out, so a worker is free again at once.
///
/// The parser finds it through the task-local `ParseCancellation.current` (bound with
/// `ParseCancellation.$current.withValue(token) { ... }`, which works on plain threads too), so a
/// parse function with the usual signature is stoppable without taking it as an argument.
/// Thread-safe.
public final class ParseCancellation: Sendable {
    private let cancelled = Atomic<Bool>(false)

    /// A token not yet cancelled.
    public init() {}

    /// Asks the parse that sees this token to stop at its next SAX event. Any thread; idempotent.
    public func cancel() {
        cancelled.store(true, ordering: .relaxed)
    }

    /// Whether `cancel()` was called.
    public var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

    /// The token parses started in this task (or on this thread, outside tasks) obey.
    @TaskLocal public static var current: ParseCancellation?
}
