extension Publishers {
    /// Ends the stream if the upstream stays silent for `interval`, as Combine's
    /// `Publishers.Timeout`.
    ///
    /// The timer starts when the upstream subscription arrives and restarts at every value. When
    /// it fires, the upstream is cancelled and the downstream receives `customError()` as a
    /// failure, or `.finished` if `customError` is nil. Values and the upstream's own completion
    /// are delivered through `scheduler.schedule(options:_:)`. Demand passes straight through;
    /// `customError` is called on the scheduler, outside any lock.
    public struct Timeout<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The upstream's output.
        public typealias Output = Upstream.Output
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher being watched.
        public let upstream: Upstream
        /// The longest allowed silence, in the scheduler's stride units.
        public let interval: Context.SchedulerTimeType.Stride
        /// Where the timer runs and events are delivered.
        public let scheduler: Context
        /// Passed to every `schedule` call.
        public let options: Context.SchedulerOptions?
        /// Builds the failure sent on timeout; `nil` finishes normally instead.
        public let customError: (() -> Upstream.Failure)?

        /// Watches `upstream` for silences longer than `interval`.
        public init(
            upstream: Upstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context,
            options: Context.SchedulerOptions?, customError: (() -> Upstream.Failure)?
        ) {
            self.upstream = upstream
            self.interval = interval
            self.scheduler = scheduler
            self.options = options
            self.customError = customError
        }

        /// Attaches `subscriber`.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(TimeoutInner(downstream: subscriber, publisher: self))
        }
    }
}

/// `ScheduledRelay` (as `receive(on:)`) with a timer restarted by the subscription and every
/// value; when it fires, the stream ends.
private final class TimeoutInner<Downstream: Subscriber, Context: Scheduler>: ScheduledRelay<Downstream, Context>,
    @unchecked Sendable
{
    override var description: String { "Timeout" }

    private let interval: Context.SchedulerTimeType.Stride
    private let customError: (() -> Failure)?
    private var generation = 0

    init<Upstream>(downstream: Downstream, publisher: Publishers.Timeout<Upstream, Context>)
    where Upstream.Failure == Failure {
        interval = publisher.interval
        customError = publisher.customError
        super.init(downstream: downstream, scheduler: publisher.scheduler, options: publisher.options)
    }

    override func didSubscribe() {
        arm()
    }

    override func receive(_ input: Input) -> Subscribers.Demand {
        guard arm() else { return .none }
        return super.receive(input)
    }

    /// (Re)starts the timer; an older timer that fires later is ignored. False once the
    /// upstream is done.
    @discardableResult
    private func arm() -> Bool {
        let tag: Int? = lock.withLock {
            guard !upstreamDone else { return nil }
            generation += 1
            return generation
        }
        guard let tag else { return false }
        // Weak: a timer still pending after a cancel must not keep the subscription (and, through
        // it, the scheduler that holds the timer) alive; while the stream lasts, the upstream
        // holds it.
        scheduler.schedule(
            after: scheduler.now.advanced(by: interval), tolerance: scheduler.minimumTolerance, options: options
        ) { [weak self] in
            self?.timedOut(tag)
        }
        return true
    }

    private func timedOut(_ tag: Int) {
        lock.lock()
        guard !upstreamDone, tag == generation else { return lock.unlock() }
        let (target, subscription) = endLocked()
        lock.unlock()
        subscription?.cancel()
        if let customError {
            target?.receive(completion: .failure(customError()))
        } else {
            target?.receive(completion: .finished)
        }
    }
}

extension Publisher {
    /// Ends the stream after `interval` without a value, finishing or failing with
    /// `customError()`, as Combine's `timeout(_:scheduler:options:customError:)`.
    /// See `Publishers.Timeout`.
    public func timeout<S: Scheduler>(
        _ interval: S.SchedulerTimeType.Stride, scheduler: S, options: S.SchedulerOptions? = nil,
        customError: (() -> Failure)? = nil
    ) -> Publishers.Timeout<Self, S> {
        Publishers.Timeout(
            upstream: self, interval: interval, scheduler: scheduler, options: options, customError: customError)
    }
}
