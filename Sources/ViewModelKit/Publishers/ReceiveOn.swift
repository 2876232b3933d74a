extension Publishers {
    /// Delivers values and the completion on `scheduler`, as Combine's `Publishers.ReceiveOn`.
    ///
    /// Each value and the completion are handed to `scheduler.schedule(options:_:)` in arrival
    /// order, so on a serial scheduler they arrive in order, the completion last. The
    /// subscription itself is passed on synchronously, and `request`/`cancel` go straight to the
    /// upstream. After `cancel()`, actions already queued on the scheduler deliver nothing.
    /// Demand is respected exactly: extra demand returned by the downstream is requested from
    /// the upstream after each delivery.
    public struct ReceiveOn<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The upstream's output.
        public typealias Output = Upstream.Output
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher whose events are moved.
        public let upstream: Upstream
        /// Where values and the completion are delivered.
        public let scheduler: Context
        /// Passed to every `schedule` call.
        public let options: Context.SchedulerOptions?

        /// Moves `upstream`'s events to `scheduler`.
        public init(upstream: Upstream, scheduler: Context, options: Context.SchedulerOptions?) {
            self.upstream = upstream
            self.scheduler = scheduler
            self.options = options
        }

        /// Attaches `subscriber`.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(ScheduledRelay(downstream: subscriber, scheduler: scheduler, options: options))
        }
    }
}

extension Publisher {
    /// Delivers values and the completion on `scheduler`, as Combine's `receive(on:options:)`.
    /// See `Publishers.ReceiveOn`.
    public func receive<S: Scheduler>(on scheduler: S, options: S.SchedulerOptions? = nil)
        -> Publishers.ReceiveOn<Self, S>
    {
        Publishers.ReceiveOn(upstream: self, scheduler: scheduler, options: options)
    }
}
