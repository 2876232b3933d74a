extension Publishers {
    /// How `collect(_:options:)` groups values, as Combine's `Publishers.TimeGroupingStrategy`.
    public enum TimeGroupingStrategy<Context: Scheduler> {
        /// A group every interval: the values received during it (none: nothing is published).
        case byTime(Context, Context.SchedulerTimeType.Stride)
        /// A group every interval, or as soon as it holds the given count, whichever comes first.
        case byTimeOrCount(Context, Context.SchedulerTimeType.Stride, Int)
    }

    /// Collects values into arrays published on a schedule, as Combine's
    /// `Publishers.CollectByTime`.
    ///
    /// From the subscription on, a repeating timer on the strategy's scheduler closes the current
    /// group every interval; with `.byTimeOrCount` a group is also closed when it holds `count`
    /// values. Every delivery happens on the scheduler, never in the upstream's `receive`: closed
    /// groups wait, in order, for the subscriber's demand (one array per unit), and are delivered
    /// by a scheduled action. Upstream is asked for one value at a time (`.max(1)` at
    /// subscription and after each value, as Combine). When upstream finishes, the open group
    /// is closed and, after the waiting groups, `.finished` follows (all on the scheduler); a
    /// failure drops every group and is passed on at the scheduler's next turn. Cancelling stops
    /// the timer.
    public struct CollectByTime<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// One group of values.
        public typealias Output = [Upstream.Output]
        /// The upstream failure type.
        public typealias Failure = Upstream.Failure

        /// The upstream publisher.
        public let upstream: Upstream
        /// The grouping rule and its scheduler.
        public let strategy: TimeGroupingStrategy<Context>
        /// Passed to the scheduler for the timer and every delivery.
        public let options: Context.SchedulerOptions?

        /// Creates the operator. With `.byTimeOrCount`, a count below 1 is treated as 1.
        public init(upstream: Upstream, strategy: TimeGroupingStrategy<Context>, options: Context.SchedulerOptions?) {
            self.upstream = upstream
            self.strategy = strategy
            self.options = options
        }

        /// Subscribes `subscriber`; the timer starts when upstream's subscription arrives.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let (scheduler, interval, count): (Context, Context.SchedulerTimeType.Stride, Int?) =
                switch strategy {
                case .byTime(let scheduler, let interval): (scheduler, interval, nil)
                case .byTimeOrCount(let scheduler, let interval, let count): (scheduler, interval, Swift.max(1, count))
                }
            upstream.subscribe(
                Inner(downstream: subscriber, scheduler: scheduler, interval: interval, count: count, options: options))
        }
    }
}

extension Publishers.CollectByTime {
    final class Inner<Downstream: Subscriber>: UpstreamRelay<Downstream>, Subscriber, @unchecked Sendable
    where Downstream.Input == [Upstream.Output], Downstream.Failure == Upstream.Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        private let scheduler: Context
        private let interval: Context.SchedulerTimeType.Stride
        private let count: Int?
        private let options: Context.SchedulerOptions?
        // Guarded by `lock`.
        private var open: [Input] = []
        private var closed: [[Input]] = []
        private var demand = Subscribers.Demand.none
        private var upstreamFinished = false
        private var failure: Failure?
        private var terminated = false
        private var timer: Cancellable?

        init(
            downstream: Downstream, scheduler: Context, interval: Context.SchedulerTimeType.Stride, count: Int?,
            options: Context.SchedulerOptions?
        ) {
            self.scheduler = scheduler
            self.interval = interval
            self.count = count
            self.options = options
            super.init(downstream: downstream, name: "CollectByTime")
        }

        override func receive(subscription: Subscription) {
            guard attach(subscription) else { return }
            downstream?.receive(subscription: self)
            let token = scheduler.schedule(
                after: scheduler.now.advanced(by: interval), interval: interval,
                tolerance: scheduler.minimumTolerance, options: options
            ) { [weak self] in self?.tick() }
            let keep = lock.withLock { () -> Bool in
                if terminated { return false }
                timer = token
                return true
            }
            if keep {
                subscription.request(.max(1))
            } else {
                token.cancel()
            }
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            lock.lock()
            // Nothing before the subscription or after the end.
            guard !terminated, !upstreamFinished, failure == nil, upstream != nil else {
                lock.unlock()
                return .none
            }
            open.append(input)
            let full = count.map { open.count >= $0 } ?? false
            if full {
                closed.append(open)
                open = []
            }
            lock.unlock()
            if full { scheduleDrain() }
            return .max(1)
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            lock.lock()
            guard !terminated, !upstreamFinished, failure == nil, upstream != nil else {
                relayClosed = true
                return lock.unlock()
            }
            upstream = nil
            relayClosed = true
            switch completion {
            case .finished:
                upstreamFinished = true
                if !open.isEmpty {
                    closed.append(open)
                    open = []
                }
            case .failure(let error):
                failure = error
                open = []
                closed = []
            }
            lock.unlock()
            scheduleDrain()
        }

        /// On the scheduler: closes the open group, if it holds anything.
        private func tick() {
            lock.lock()
            if !terminated, !open.isEmpty {
                closed.append(open)
                open = []
            }
            lock.unlock()
            drain()
        }

        private func scheduleDrain() {
            scheduler.schedule(options: options) { [self] in drain() }
        }

        /// On the scheduler: delivers the closed groups the demand allows, then the completion
        /// once nothing waits.
        private func drain() {
            while true {
                lock.lock()
                if terminated { return lock.unlock() }
                if let error = failure {
                    finish(.failure(error))
                    return
                }
                if let group = closed.first, demand > 0 {
                    closed.removeFirst()
                    demand -= 1
                    lock.unlock()
                    let more = downstream?.receive(group) ?? .none
                    lock.withLock { demand += more }
                    continue
                }
                if upstreamFinished, closed.isEmpty {
                    finish(.finished)
                    return
                }
                lock.unlock()
                return
            }
        }

        /// Called with `lock` held; ends the stream and releases it.
        private func finish(_ completion: Subscribers.Completion<Failure>) {
            terminated = true
            let token = timer
            timer = nil
            lock.unlock()
            token?.cancel()
            complete(completion)
        }

        override func request(_ more: Subscribers.Demand) {
            guard more > 0 else { return }
            let waiting = lock.withLock { () -> Bool in
                demand += more
                return !closed.isEmpty
            }
            if waiting { scheduleDrain() }
        }

        override func cancel() {
            releaseDownstream()
            let (token, source) = lock.withLock { () -> (Cancellable?, Subscription?) in
                terminated = true
                open = []
                closed = []
                defer {
                    timer = nil
                    upstream = nil
                    relayClosed = true
                }
                return (timer, upstream)
            }
            token?.cancel()
            source?.cancel()
        }
    }
}

extension Publisher {
    /// Collects values into arrays published every interval (or at a count), as Combine's
    /// `collect(_:options:)`. See `Publishers.CollectByTime`.
    public func collect<S: Scheduler>(
        _ strategy: Publishers.TimeGroupingStrategy<S>, options: S.SchedulerOptions? = nil
    ) -> Publishers.CollectByTime<Self, S> {
        Publishers.CollectByTime(upstream: self, strategy: strategy, options: options)
    }
}
