/// A coalescing wake-up source, after CombineViewModel's idea of an event source.
///
/// `signal()` may be called any number of times from any thread. All signals that arrive before
/// the scheduler runs the source's handler merge into one handler call; inside the handler,
/// `mergedSignalCount` says how many. After `cancel()` (or deinit) the handler is never called
/// again and is released.
public protocol EventSource: AnyObject, Cancellable {
    /// Requests one run of the handler. Thread-safe; repeated calls before it runs coalesce.
    func signal()

    /// Inside the handler: how many `signal()` calls this handler call merged (at least 1).
    /// Outside the handler: the number of signals waiting to be delivered.
    var mergedSignalCount: Int { get }
}

/// The `EventSource` protocol under a second name, for code inside an `EventSourceScheduler`,
/// where `EventSource` names that scheduler's concrete source type (CombineViewModel's
/// `DispatchQueue.EventSource`).
public typealias EventSourceProtocol = EventSource

extension EventSource {
    /// CombineViewModel's name for `mergedSignalCount` (its `DispatchQueue.EventSource.eventCount`):
    /// inside the handler, how many signals this call merged.
    public var eventCount: Int { mergedSignalCount }
}

/// A scheduler that can service coalescing event sources.
///
/// Each conformance documents *when* a signalled source is serviced: `LoopScheduler` at the end
/// of the loop iteration, `TestScheduler` on the next advance (at `now`), `DispatchQueue` as a
/// queued block.
public protocol EventSourceScheduler: Scheduler {
    /// The concrete source type this scheduler hands out.
    associatedtype EventSourceType: EventSourceProtocol

    /// Creates a source whose signals run `handler` (with the source itself) on this scheduler.
    /// `options` are honoured the way each scheduler documents (for example a priority).
    func scheduleEventSource(
        options: SchedulerOptions?, _ handler: @escaping (EventSourceType) -> Void
    ) -> EventSourceType
}

extension EventSourceScheduler {
    /// CombineViewModel's name for the source type: `DispatchQueue.EventSource`,
    /// `LoopScheduler.EventSource`, `S.EventSource` in generic code. The same type as
    /// `EventSourceType`.
    public typealias EventSource = EventSourceType

    /// CombineViewModel's name for the options `scheduleEventSource` and `observe(on:options:)`
    /// take: here they are the scheduler's own `SchedulerOptions`.
    public typealias EventSourceOptions = SchedulerOptions

    /// CombineViewModel's spelling, `scheduleEventSource(options:eventHandler:)`: the same as
    /// `scheduleEventSource(options:_:)`.
    public func scheduleEventSource(
        options: SchedulerOptions? = nil, eventHandler: @escaping (EventSourceType) -> Void
    ) -> EventSourceType {
        scheduleEventSource(options: options, eventHandler)
    }

    /// Creates a source with no options. See `scheduleEventSource(options:_:)`.
    public func scheduleEventSource(_ handler: @escaping (EventSourceType) -> Void) -> EventSourceType {
        scheduleEventSource(options: nil, handler)
    }
}
