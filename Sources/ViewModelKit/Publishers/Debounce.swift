extension Publishers {
    /// Publishes a value only after `dueTime` has passed without a newer one, as Combine's
    /// `Publishers.Debounce`.
    ///
    /// The upstream is asked for unlimited values. Each value replaces the pending one and
    /// schedules its emission on `scheduler` at `scheduler.now + dueTime`; an older schedule
    /// that fires after being replaced does nothing. Values are delivered on the scheduler and
    /// dropped if the downstream has no demand at that moment. When the upstream completes, the
    /// pending value is dropped and the completion is delivered through
    /// `scheduler.schedule(options:_:)`. After `cancel()` nothing more is delivered.
    public struct Debounce<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The upstream's output.
        public typealias Output = Upstream.Output
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher being debounced.
        public let upstream: Upstream
        /// The quiet time a value must survive, in the scheduler's stride units.
        public let dueTime: Context.SchedulerTimeType.Stride
        /// Where the timing and the delivery happen.
        public let scheduler: Context
        /// Passed to every `schedule` call.
        public let options: Context.SchedulerOptions?

        /// Debounces `upstream` by `dueTime` on `scheduler`.
        public init(
            upstream: Upstream, dueTime: Context.SchedulerTimeType.Stride, scheduler: Context,
            options: Context.SchedulerOptions?
        ) {
            self.upstream = upstream
            self.dueTime = dueTime
            self.scheduler = scheduler
            self.options = options
        }

        /// Attaches `subscriber`.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(
                DebounceInner(downstream: subscriber, dueTime: dueTime, scheduler: scheduler, options: options))
        }
    }
}

/// `ScheduledRelay` on the local demand route that keeps only the newest value, delivered once
/// it has been pending for `dueTime`.
private final class DebounceInner<Downstream: Subscriber, Context: Scheduler>: ScheduledRelay<Downstream, Context>,
    @unchecked Sendable
{
    override var description: String { "Debounce" }

    /// As Combine reflects it: `downstream`, `downstreamDemand` and `currentValue` (the value
    /// waiting for its due time, if any).
    override var customMirror: Mirror {
        let (target, demand) = reflected
        let current = lock.withLock { pending }
        let children: KeyValuePairs<String, Any> = [
            "downstream": target as Any, "downstreamDemand": demand, "currentValue": current as Any,
        ]
        return Mirror(self, children: children)
    }

    private let dueTime: Context.SchedulerTimeType.Stride
    private var pending: Input?
    /// Tags each value's schedule; a schedule whose value was replaced or dropped does nothing.
    private var generation = 0

    init(
        downstream: Downstream, dueTime: Context.SchedulerTimeType.Stride, scheduler: Context,
        options: Context.SchedulerOptions?
    ) {
        self.dueTime = dueTime
        super.init(downstream: downstream, scheduler: scheduler, options: options, demand: .local)
    }

    override func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard !upstreamDone else {
            lock.unlock()
            return .none
        }
        generation += 1
        let tag = generation
        let replaced = pending
        pending = input
        lock.unlock()
        withExtendedLifetime(replaced) {}
        scheduler.schedule(
            after: scheduler.now.advanced(by: dueTime), tolerance: scheduler.minimumTolerance, options: options
        ) { [self] in
            fire(tag)
        }
        return .none
    }

    private func fire(_ tag: Int) {
        let value = lock.withLock { () -> Input? in
            guard tag == generation else { return nil }
            defer { pending = nil }
            return pending
        }
        if let value { deliver(value) }
    }

    override func receive(completion: Subscribers.Completion<Failure>) {
        dropPending()
        super.receive(completion: completion)
    }

    override func cancel() {
        dropPending()
        super.cancel()
    }

    /// The pending value is dropped (not delivered) at completion or cancel, as Combine's.
    private func dropPending() {
        let dropped = lock.withLock { () -> Input? in
            generation += 1
            defer { pending = nil }
            return pending
        }
        withExtendedLifetime(dropped) {}
    }
}

extension Publisher {
    /// Publishes a value only once `dueTime` has passed without another, as Combine's
    /// `debounce(for:scheduler:options:)`. See `Publishers.Debounce`.
    public func debounce<S: Scheduler>(
        for dueTime: S.SchedulerTimeType.Stride, scheduler: S, options: S.SchedulerOptions? = nil
    ) -> Publishers.Debounce<Self, S> {
        Publishers.Debounce(upstream: self, dueTime: dueTime, scheduler: scheduler, options: options)
    }
}
