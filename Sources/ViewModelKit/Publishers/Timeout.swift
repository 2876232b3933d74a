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

private final class TimeoutInner<Upstream: Publisher, Context: Scheduler, Downstream: Subscriber>: Subscriber,
    Subscription, @unchecked Sendable
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    private let lock = OperatorLock()
    private var downstream: Downstream?
    private var upstream: Subscription?
    private var generation = 0
    private var upstreamDone = false
    private var terminated = false
    private let publisher: Publishers.Timeout<Upstream, Context>

    init(downstream: Downstream, publisher: Publishers.Timeout<Upstream, Context>) {
        self.downstream = downstream
        self.publisher = publisher
    }

    /// (Re)starts the timer; an older timer that fires later is ignored.
    private func arm() {
        let tag: Int? = lock.withLock {
            guard !upstreamDone else { return nil }
            generation += 1
            return generation
        }
        guard let tag else { return }
        let scheduler = publisher.scheduler
        scheduler.schedule(
            after: scheduler.now.advanced(by: publisher.interval), tolerance: scheduler.minimumTolerance,
            options: publisher.options
        ) { [self] in
            timedOut(tag)
        }
    }

    private func timedOut(_ tag: Int) {
        lock.lock()
        guard !terminated, !upstreamDone, tag == generation, let target = downstream else {
            return lock.unlock()
        }
        terminated = true
        upstreamDone = true
        downstream = nil
        let subscription = upstream
        upstream = nil
        lock.unlock()
        subscription?.cancel()
        if let customError = publisher.customError {
            target.receive(completion: .failure(customError()))
        } else {
            target.receive(completion: .finished)
        }
    }

    func receive(subscription: Subscription) {
        lock.lock()
        guard !terminated, upstream == nil, let target = downstream else {
            lock.unlock()
            subscription.cancel()
            return
        }
        upstream = subscription
        lock.unlock()
        target.receive(subscription: self)
        arm()
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        guard lock.withLock({ !upstreamDone }) else { return .none }
        arm()
        publisher.scheduler.schedule(options: publisher.options) { [self] in
            guard let target = lock.withLock({ terminated ? nil : downstream }) else { return }
            let extra = target.receive(input)
            if extra > 0, let subscription = lock.withLock({ upstream }) { subscription.request(extra) }
        }
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        let accepted = lock.withLock { () -> Bool in
            guard !upstreamDone else { return false }
            upstreamDone = true
            generation += 1
            return true
        }
        guard accepted else { return }
        // The upstream is done: later requests have nowhere to go.
        let finished = lock.withLock { () -> Subscription? in
            defer { upstream = nil }
            return upstream
        }
        withExtendedLifetime(finished) {}
        publisher.scheduler.schedule(options: publisher.options) { [self] in
            lock.lock()
            guard !terminated, let target = downstream else { return lock.unlock() }
            terminated = true
            downstream = nil
            lock.unlock()
            target.receive(completion: completion)
        }
    }

    func request(_ demand: Subscribers.Demand) {
        lock.withLock { terminated ? nil : upstream }?.request(demand)
    }

    func cancel() {
        lock.lock()
        guard !terminated else { return lock.unlock() }
        terminated = true
        upstreamDone = true
        let target = downstream
        let subscription = upstream
        downstream = nil
        upstream = nil
        lock.unlock()
        subscription?.cancel()
        withExtendedLifetime(target) {}
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
