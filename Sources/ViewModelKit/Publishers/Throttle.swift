extension Publishers {
    /// Publishes at most one value per `interval`, as Combine's `Publishers.Throttle`.
    ///
    /// The upstream is asked for unlimited values; a value arriving while the downstream has no
    /// demand is dropped. The first value kept schedules an emission: at once (through
    /// `scheduler.schedule`) if nothing was emitted in the last `interval`, else when the interval
    /// since the last emission ends. Until that emission runs, later values replace the kept one
    /// (`latest == true`) or are dropped (`latest == false`); the emission delivers whatever is
    /// kept when it runs, so values 1, 2, 3 sent before the scheduler runs give 3 (or 1).
    /// Everything is delivered on the scheduler. The completion is delivered through
    /// `scheduler.schedule`; if an emission is scheduled, the completion follows its value in it
    /// (unlike `debounce`, which drops its pending value).
    public struct Throttle<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The upstream's output.
        public typealias Output = Upstream.Output
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher being throttled.
        public let upstream: Upstream
        /// The minimum spacing between emissions, in the scheduler's stride units.
        public let interval: Context.SchedulerTimeType.Stride
        /// Where the timing and the delivery happen.
        public let scheduler: Context
        /// Emit the newest held value (`true`) or the first one (`false`).
        public let latest: Bool

        /// Throttles `upstream` to one value per `interval` on `scheduler`.
        public init(upstream: Upstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context, latest: Bool) {
            self.upstream = upstream
            self.interval = interval
            self.scheduler = scheduler
            self.latest = latest
        }

        /// Attaches `subscriber`.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(
                ThrottleInner(downstream: subscriber, interval: interval, scheduler: scheduler, latest: latest))
        }
    }
}

/// `ScheduledRelay` on the local demand route that spaces emissions at least `interval` apart.
///
/// As Combine's: a value arriving without downstream demand is dropped. Otherwise it is kept
/// (replacing the kept one if `latest`, else only if none is kept) and, unless an emission is
/// already scheduled, one is scheduled: at once if nothing was emitted within the last
/// `interval`, else when the interval since the last emission ends. What is emitted is decided
/// when that scheduled emission runs, on the scheduler, never in the upstream's `receive`.
private final class ThrottleInner<Downstream: Subscriber, Context: Scheduler>: ScheduledRelay<Downstream, Context>,
    @unchecked Sendable
{
    override var description: String { "Throttle" }

    private let interval: Context.SchedulerTimeType.Stride
    private let latest: Bool
    private var lastEmission: Context.SchedulerTimeType?
    private var held: Input?
    private var emissionScheduled = false
    private var pendingCompletion: Subscribers.Completion<Failure>?

    init(downstream: Downstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context, latest: Bool) {
        self.interval = interval
        self.latest = latest
        super.init(downstream: downstream, scheduler: scheduler, options: nil, demand: .local, keepsDownstream: false)
    }

    override func receive(_ input: Input) -> Subscribers.Demand {
        let now = scheduler.now
        lock.lock()
        guard !upstreamDone, hasDemandLocked else {
            lock.unlock()
            return .none
        }
        var replaced: Input?
        if held == nil {
            held = input
        } else if latest {
            replaced = held
            held = input
        }
        guard !emissionScheduled else {
            lock.unlock()
            withExtendedLifetime(replaced) {}
            return .none
        }
        emissionScheduled = true
        let due = lastEmission.map { $0.advanced(by: interval) }
        lock.unlock()
        withExtendedLifetime(replaced) {}
        if let due, now < due {
            scheduler.schedule(after: due, tolerance: scheduler.minimumTolerance, options: nil) { [self] in emit() }
        } else {
            scheduler.schedule(options: nil) { [self] in emit() }
        }
        return .none
    }

    /// The scheduled emission: takes whatever is kept now, and the completion that followed it.
    private func emit() {
        let now = scheduler.now
        lock.lock()
        guard emissionScheduled else { return lock.unlock() }
        emissionScheduled = false
        let value = held
        held = nil
        lastEmission = now
        let completion = pendingCompletion
        pendingCompletion = nil
        lock.unlock()
        if let value { deliver(value) }
        if let completion { finish(completion) }
    }

    override func receive(completion: Subscribers.Completion<Failure>) {
        // With an emission scheduled, the completion follows the kept value in that emission.
        let followsHeldValue = lock.withLock { () -> Bool in
            if emissionScheduled, !upstreamDone { pendingCompletion = completion }
            return emissionScheduled
        }
        if followsHeldValue {
            upstreamCompleted()
        } else {
            super.receive(completion: completion)
        }
    }

    override func cancel() {
        let dropped = lock.withLock { () -> Input? in
            emissionScheduled = false
            pendingCompletion = nil
            defer { held = nil }
            return held
        }
        super.cancel()
        withExtendedLifetime(dropped) {}
    }
}

extension Publisher {
    /// Publishes at most one value per `interval`: the first or the newest of each burst, as
    /// Combine's `throttle(for:scheduler:latest:)`. See `Publishers.Throttle`.
    public func throttle<S: Scheduler>(
        for interval: S.SchedulerTimeType.Stride, scheduler: S, latest: Bool
    ) -> Publishers.Throttle<Self, S> {
        Publishers.Throttle(upstream: self, interval: interval, scheduler: scheduler, latest: latest)
    }
}
