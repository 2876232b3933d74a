extension Publishers {
    /// Shifts every value and the completion later by `interval`, as Combine's
    /// `Publishers.Delay`.
    ///
    /// Each event is scheduled on `scheduler` at `scheduler.now + interval` (read when the event
    /// arrives), so spacing and order are kept on a time-ordered scheduler. Demand passes
    /// straight through to the upstream; extra demand returned by the downstream is requested
    /// after each delivery. After `cancel()` scheduled events deliver nothing.
    public struct Delay<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The upstream's output.
        public typealias Output = Upstream.Output
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher being delayed.
        public let upstream: Upstream
        /// The delay, in the scheduler's stride units.
        public let interval: Context.SchedulerTimeType.Stride
        /// The tolerance passed to the scheduler.
        public let tolerance: Context.SchedulerTimeType.Stride
        /// Where the delayed events are delivered.
        public let scheduler: Context
        /// Passed to every `schedule` call.
        public let options: Context.SchedulerOptions?

        /// Delays `upstream`'s events by `interval` on `scheduler`.
        public init(
            upstream: Upstream, interval: Context.SchedulerTimeType.Stride,
            tolerance: Context.SchedulerTimeType.Stride, scheduler: Context,
            options: Context.SchedulerOptions? = nil
        ) {
            self.upstream = upstream
            self.interval = interval
            self.tolerance = tolerance
            self.scheduler = scheduler
            self.options = options
        }

        /// Attaches `subscriber`.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(DelayInner(downstream: subscriber, publisher: self))
        }
    }
}

/// `ScheduledRelay` whose deliveries are scheduled `interval` after they arrive.
private final class DelayInner<Downstream: Subscriber, Context: Scheduler>: ScheduledRelay<Downstream, Context>,
    @unchecked Sendable
{
    override var description: String { "Delay" }

    private let interval: Context.SchedulerTimeType.Stride
    private let tolerance: Context.SchedulerTimeType.Stride

    init<Upstream>(downstream: Downstream, publisher: Publishers.Delay<Upstream, Context>) {
        interval = publisher.interval
        tolerance = publisher.tolerance
        super.init(downstream: downstream, scheduler: publisher.scheduler, options: publisher.options)
    }

    override func schedule(_ action: @escaping () -> Void) {
        scheduler.schedule(
            after: scheduler.now.advanced(by: interval), tolerance: tolerance, options: options, action)
    }
}

extension Publisher {
    /// Delivers every value and the completion `interval` later on `scheduler`, as Combine's
    /// `delay(for:tolerance:scheduler:options:)`. A `nil` tolerance means the scheduler's
    /// `minimumTolerance`. See `Publishers.Delay`.
    public func delay<S: Scheduler>(
        for interval: S.SchedulerTimeType.Stride, tolerance: S.SchedulerTimeType.Stride? = nil,
        scheduler: S, options: S.SchedulerOptions? = nil
    ) -> Publishers.Delay<Self, S> {
        Publishers.Delay(
            upstream: self, interval: interval, tolerance: tolerance ?? scheduler.minimumTolerance,
            scheduler: scheduler, options: options)
    }
}
