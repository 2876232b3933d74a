import LoopScheduler

/// A type-erased scheduler with time `SchedulerTimeType` and options `SchedulerOptions`, after
/// pointfreeco/combine-schedulers' `AnyScheduler`: code can take `AnySchedulerOf<LoopScheduler>`
/// and tests pass a `TestScheduler` (same time and options types).
///
/// It is also an `EventSourceScheduler`: erasing an `EventSourceScheduler` keeps its own sources
/// (for example the loop's end-of-iteration flush); erasing a plain `Scheduler` uses a
/// `ScheduledEventSource` on it. Thread rules are those of the wrapped scheduler.
public struct AnyScheduler<SchedulerTimeType: Strideable, SchedulerOptions>: Scheduler, EventSourceScheduler
where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible {
    private let nowBody: () -> SchedulerTimeType
    private let minimumToleranceBody: () -> SchedulerTimeType.Stride
    private let scheduleBody: (SchedulerOptions?, @escaping () -> Void) -> Void
    private let scheduleAfterBody:
        (SchedulerTimeType, SchedulerTimeType.Stride, SchedulerOptions?, @escaping () -> Void) -> Void
    private let scheduleIntervalBody:
        (SchedulerTimeType, SchedulerTimeType.Stride, SchedulerTimeType.Stride, SchedulerOptions?, @escaping () -> Void)
            -> Cancellable
    private let eventSourceBody: (SchedulerOptions?, @escaping (AnyEventSource) -> Void) -> AnyEventSource

    /// Builds a scheduler from closures, one per requirement (for custom test doubles). Event
    /// sources are `ScheduledEventSource`s over `schedule`.
    public init(
        minimumTolerance: @escaping () -> SchedulerTimeType.Stride,
        now: @escaping () -> SchedulerTimeType,
        scheduleImmediately: @escaping (SchedulerOptions?, @escaping () -> Void) -> Void,
        delayed:
            @escaping (SchedulerTimeType, SchedulerTimeType.Stride, SchedulerOptions?, @escaping () -> Void) -> Void,
        interval:
            @escaping (
                SchedulerTimeType, SchedulerTimeType.Stride, SchedulerTimeType.Stride, SchedulerOptions?,
                @escaping () -> Void
            ) -> Cancellable
    ) {
        nowBody = now
        minimumToleranceBody = minimumTolerance
        scheduleBody = scheduleImmediately
        scheduleAfterBody = delayed
        scheduleIntervalBody = interval
        let bare = BareScheduler<SchedulerTimeType, SchedulerOptions>(
            now: now, minimumTolerance: minimumTolerance, schedule: scheduleImmediately,
            scheduleAfter: delayed, scheduleInterval: interval)
        eventSourceBody = { options, handler in
            AnyEventSource.wrapping(handler: handler) { relay in
                ScheduledEventSource(scheduler: bare, options: options, relay)
            }
        }
    }

    /// Erases `scheduler`; its event sources are `ScheduledEventSource`s over its `schedule`.
    public init<S: Scheduler>(_ scheduler: S)
    where S.SchedulerTimeType == SchedulerTimeType, S.SchedulerOptions == SchedulerOptions {
        self.init(
            minimumTolerance: { scheduler.minimumTolerance },
            now: { scheduler.now },
            scheduleImmediately: { scheduler.schedule(options: $0, $1) },
            delayed: { scheduler.schedule(after: $0, tolerance: $1, options: $2, $3) },
            interval: { scheduler.schedule(after: $0, interval: $1, tolerance: $2, options: $3, $4) })
    }

    /// Erases `scheduler`, keeping its own event sources.
    public init<S: EventSourceScheduler>(_ scheduler: S)
    where S.SchedulerTimeType == SchedulerTimeType, S.SchedulerOptions == SchedulerOptions {
        nowBody = { scheduler.now }
        minimumToleranceBody = { scheduler.minimumTolerance }
        scheduleBody = { scheduler.schedule(options: $0, $1) }
        scheduleAfterBody = { scheduler.schedule(after: $0, tolerance: $1, options: $2, $3) }
        scheduleIntervalBody = { scheduler.schedule(after: $0, interval: $1, tolerance: $2, options: $3, $4) }
        eventSourceBody = { options, handler in
            AnyEventSource.wrapping(handler: handler) { relay in scheduler.scheduleEventSource(options: options, relay)
            }
        }
    }

    /// The wrapped scheduler's `now`.
    public var now: SchedulerTimeType { nowBody() }

    /// The wrapped scheduler's `minimumTolerance`.
    public var minimumTolerance: SchedulerTimeType.Stride { minimumToleranceBody() }

    /// Forwards to the wrapped scheduler.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        scheduleBody(options, action)
    }

    /// Forwards to the wrapped scheduler.
    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        scheduleAfterBody(date, tolerance, options, action)
    }

    /// Forwards to the wrapped scheduler.
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> Cancellable {
        scheduleIntervalBody(date, interval, tolerance, options, action)
    }

    /// A source from the wrapped scheduler (see the type's doc), behind `AnyEventSource`.
    public func scheduleEventSource(
        options: SchedulerOptions?, _ handler: @escaping (AnyEventSource) -> Void
    ) -> AnyEventSource {
        eventSourceBody(options, handler)
    }
}

/// `AnyScheduler` with the time and options types of `S`, as combine-schedulers'
/// `AnySchedulerOf`. For example `AnySchedulerOf<LoopScheduler>` accepts a `TestScheduler`.
public typealias AnySchedulerOf<S: Scheduler> = AnyScheduler<S.SchedulerTimeType, S.SchedulerOptions>

extension Scheduler {
    /// Wraps this scheduler in an `AnyScheduler` (event sources built on `schedule`).
    public func eraseToAnyScheduler() -> AnyScheduler<SchedulerTimeType, SchedulerOptions> {
        AnyScheduler(self)
    }
}

extension EventSourceScheduler {
    /// Wraps this scheduler in an `AnyScheduler`, keeping its own event sources.
    public func eraseToAnyScheduler() -> AnyScheduler<SchedulerTimeType, SchedulerOptions> {
        AnyScheduler(self)
    }
}

extension AnyScheduler where SchedulerTimeType == MonotonicInstant {
    /// A scheduler with `LoopScheduler`'s time type that runs everything at once on the calling
    /// thread (as `ImmediateScheduler`), for any options type, e.g.
    /// `AnySchedulerOf<LoopScheduler>.immediate`. Its event sources deliver synchronously.
    public static var immediate: AnyScheduler {
        AnyScheduler(
            minimumTolerance: { .nanoseconds(0) },
            now: { .now() },
            scheduleImmediately: { _, action in action() },
            delayed: { _, _, _, action in action() },
            interval: { _, _, _, _, action in
                action()
                return AnyCancellable {}
            })
    }
}

/// A type-erased `EventSource`, handed out by `AnyScheduler`. Forwards `signal()`,
/// `mergedSignalCount` and `cancel()` to the wrapped source; dropping it cancels the source.
public final class AnyEventSource: EventSource, @unchecked Sendable {
    private let lock = Lock()
    private var wrapped: (any EventSource)?

    private init() {}

    /// Creates the erased source: `make` builds the underlying source from a relay handler that
    /// calls `handler` with the erased one.
    static func wrapping<E: EventSource>(
        handler: @escaping (AnyEventSource) -> Void, _ make: (@escaping (E) -> Void) -> E
    ) -> AnyEventSource {
        let erased = AnyEventSource()
        let underlying = make { [weak erased] _ in
            if let erased { handler(erased) }
        }
        erased.lock.withLock { erased.wrapped = underlying }
        return erased
    }

    deinit {
        cancel()
    }

    /// Forwards to the wrapped source. Thread rules are the wrapped source's.
    public func signal() {
        lock.withLock { wrapped }?.signal()
    }

    /// The wrapped source's count (inside the handler: how many signals this call merged).
    public var mergedSignalCount: Int {
        lock.withLock { wrapped }?.mergedSignalCount ?? 0
    }

    /// Cancels and releases the wrapped source. Idempotent.
    public func cancel() {
        let taken = lock.withLock { () -> (any EventSource)? in
            defer { wrapped = nil }
            return wrapped
        }
        taken?.cancel()
    }
}

/// A closure-built scheduler, so `AnyScheduler`'s closure initialiser can reuse
/// `ScheduledEventSource`.
struct BareScheduler<SchedulerTimeType: Strideable, SchedulerOptions>: Scheduler
where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible {
    let nowBody: () -> SchedulerTimeType
    let minimumToleranceBody: () -> SchedulerTimeType.Stride
    let scheduleBody: (SchedulerOptions?, @escaping () -> Void) -> Void
    let scheduleAfterBody:
        (SchedulerTimeType, SchedulerTimeType.Stride, SchedulerOptions?, @escaping () -> Void) -> Void
    let scheduleIntervalBody:
        (SchedulerTimeType, SchedulerTimeType.Stride, SchedulerTimeType.Stride, SchedulerOptions?, @escaping () -> Void)
            -> Cancellable

    init(
        now: @escaping () -> SchedulerTimeType, minimumTolerance: @escaping () -> SchedulerTimeType.Stride,
        schedule: @escaping (SchedulerOptions?, @escaping () -> Void) -> Void,
        scheduleAfter:
            @escaping (SchedulerTimeType, SchedulerTimeType.Stride, SchedulerOptions?, @escaping () -> Void) -> Void,
        scheduleInterval:
            @escaping (
                SchedulerTimeType, SchedulerTimeType.Stride, SchedulerTimeType.Stride, SchedulerOptions?,
                @escaping () -> Void
            ) -> Cancellable
    ) {
        nowBody = now
        minimumToleranceBody = minimumTolerance
        scheduleBody = schedule
        scheduleAfterBody = scheduleAfter
        scheduleIntervalBody = scheduleInterval
    }

    var now: SchedulerTimeType { nowBody() }
    var minimumTolerance: SchedulerTimeType.Stride { minimumToleranceBody() }
    func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) { scheduleBody(options, action) }
    func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        scheduleAfterBody(date, tolerance, options, action)
    }
    func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> Cancellable {
        scheduleIntervalBody(date, interval, tolerance, options, action)
    }
}
