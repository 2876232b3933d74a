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
///
/// The scheduler traffic is Combine's, as OpenCombine's Combine-validated `DebounceTests` record
/// it: each value cancels the previous value's timer and starts a repeating one,
/// `schedule(after: now + dueTime, interval: dueTime, tolerance: minimumTolerance, options:)`,
/// which the first firing cancels; the completion drops the pending value, cancels its timer and
/// is delivered through `schedule(options: nil)`.
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
    /// Guarded by `lock`.
    private var pending: Input?
    /// Tags each value's timer; a timer whose value was replaced or dropped does nothing.
    /// Guarded by `lock`.
    private var generation = 0
    /// The current value's timer, cancelled by the next value, its firing, the end. Guarded by
    /// `lock`.
    private var timer: Cancellable?
    /// The generation whose timer last fired or ended (so that a token returned after its
    /// timer already fired is cancelled at once). Guarded by `lock`.
    private var settledGeneration = 0

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
        let previous = timer
        timer = nil
        lock.unlock()
        withExtendedLifetime(replaced) {}
        previous?.cancel()
        let token = scheduler.schedule(
            after: scheduler.now.advanced(by: dueTime), interval: dueTime, tolerance: scheduler.minimumTolerance,
            options: options
        ) { [self] in
            fire(tag)
        }
        let keep = lock.withLock { () -> Bool in
            guard tag == generation, settledGeneration != tag else { return false }
            timer = token
            return true
        }
        if !keep { token.cancel() }
        return .none
    }

    private func fire(_ tag: Int) {
        let (value, ended) = lock.withLock { () -> (Input?, Cancellable?) in
            guard tag == generation else { return (nil, nil) }
            settledGeneration = tag
            defer {
                pending = nil
                timer = nil
            }
            return (pending, timer)
        }
        ended?.cancel()
        if let value { deliver(value) }
    }

    /// The completion goes through `schedule(options: nil)`, as Combine's.
    override func schedule(_ action: @escaping () -> Void) {
        scheduler.schedule(options: nil, action)
    }

    override func receive(completion: Subscribers.Completion<Failure>) {
        dropPending()
        super.receive(completion: completion)
    }

    override func cancel() {
        dropPending()
        super.cancel()
    }

    /// The pending value is dropped (not delivered) at completion or cancel, and its timer
    /// cancelled, as Combine's.
    private func dropPending() {
        let (dropped, ended) = lock.withLock { () -> (Input?, Cancellable?) in
            generation += 1
            settledGeneration = generation
            defer {
                pending = nil
                timer = nil
            }
            return (pending, timer)
        }
        ended?.cancel()
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
