/// A coalescing event source for any `Scheduler`: the first signal queues one action with
/// `schedule(options:_:)`; later signals merge into it until it runs. Signals raised while the
/// handler runs merge into one more delivery, scheduled when the handler returns.
///
/// `DispatchQueue` uses it (the queued block is the delivery) and `AnyScheduler` uses it for
/// schedulers that have no event sources of their own. `signal()` is thread-safe as far as the
/// wrapped scheduler's `schedule` is. The queued action holds the source weakly: after `cancel()`
/// or deinit nothing is delivered (a delivery already running on another thread finishes).
public final class ScheduledEventSource<S: Scheduler>: EventSource, @unchecked Sendable {
    private let lock = Lock()
    private let scheduler: S
    private let options: S.SchedulerOptions?
    private var handler: ((ScheduledEventSource<S>) -> Void)?
    private var waiting = 0
    private var delivering: Int?
    private var deliveringThread: UInt = 0
    private var queued = false

    /// A source whose deliveries are scheduled on `scheduler` with `options`.
    public init(
        scheduler: S, options: S.SchedulerOptions? = nil, _ handler: @escaping (ScheduledEventSource<S>) -> Void
    ) {
        self.scheduler = scheduler
        self.options = options
        self.handler = handler
    }

    deinit {
        cancel()
    }

    /// Counts a signal; the first one since the last delivery schedules a delivery.
    public func signal() {
        let schedule = lock.withLock { () -> Bool in
            guard handler != nil else { return false }
            waiting += 1
            if queued { return false }
            queued = true
            return true
        }
        guard schedule else { return }
        scheduler.schedule(options: options) { [weak self] in self?.deliver() }
    }

    /// Inside the handler: the signals this call merged (at least 1). Elsewhere: signals waiting.
    public var mergedSignalCount: Int {
        lock.withLock {
            if let delivering, deliveringThread == currentThreadID() { return delivering }
            return waiting
        }
    }

    /// Stops delivery and releases the handler. Idempotent, any thread.
    public func cancel() {
        let released = lock.withLock { () -> ((ScheduledEventSource<S>) -> Void)? in
            defer {
                handler = nil
                waiting = 0
            }
            return handler
        }
        _ = released
    }

    private func deliver() {
        let call = lock.withLock { () -> ((ScheduledEventSource<S>) -> Void)? in
            guard let handler, waiting > 0 else {
                queued = false
                return nil
            }
            delivering = waiting
            deliveringThread = currentThreadID()
            waiting = 0
            return handler
        }
        guard let call else { return }
        call(self)
        // Signals raised during the handler stayed merged behind `queued`; deliver them next.
        let again = lock.withLock { () -> Bool in
            delivering = nil
            deliveringThread = 0
            if waiting > 0, handler != nil { return true }
            queued = false
            return false
        }
        if again {
            scheduler.schedule(options: options) { [weak self] in self?.deliver() }
        }
    }
}
