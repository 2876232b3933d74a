/// The engine of every repeating timer publisher in the package (`Publishers.Timer` in
/// ViewModelKitSchedulers, Foundation's `Timer.TimerPublisher` in ViewModelKitFoundation): a
/// connectable publisher of `scheduler.now` at each tick. Not public API: ViewModelKit itself
/// publishes no timer, as Combine has none beyond Foundation's.
///
/// Ticks start at `connect()` (the first at `scheduler.now + interval`, then every `interval`, via
/// the scheduler's repeating `schedule`) and stop when the returned token is cancelled. A second
/// `connect()` while connected returns the same running connection. Each tick sends
/// `scheduler.now` to every subscriber that has demand, in subscription order, on the
/// scheduler's thread; subscribers without demand miss that tick. It never completes.
package final class SchedulerTimer<Context: Scheduler>: ConnectablePublisher, @unchecked Sendable {
    /// The scheduler time at the tick.
    package typealias Output = Context.SchedulerTimeType
    /// A timer cannot fail.
    package typealias Failure = Never

    /// The time between ticks, in the scheduler's stride units.
    package let interval: Context.SchedulerTimeType.Stride
    /// The tolerance passed to the scheduler; `nil` means its `minimumTolerance`.
    package let tolerance: Context.SchedulerTimeType.Stride?
    /// The scheduler that drives the ticks.
    package let scheduler: Context
    /// Passed to the scheduler.
    package let options: Context.SchedulerOptions?

    private let lock = Lock()
    private var slots: [TimerSlot<Output>] = []
    private var connection: TimerConnection?

    /// A timer ticking every `interval` on `scheduler`; nothing happens until `connect()`.
    package init(
        every interval: Context.SchedulerTimeType.Stride, tolerance: Context.SchedulerTimeType.Stride? = nil,
        scheduler: Context, options: Context.SchedulerOptions? = nil
    ) {
        self.interval = interval
        self.tolerance = tolerance
        self.scheduler = scheduler
        self.options = options
    }

    /// Attaches `subscriber`; it receives ticks within its demand until it cancels.
    package func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let slot = TimerSubscription(downstream: subscriber, timer: self)
        lock.withLock { slots.append(slot) }
        subscriber.receive(subscription: slot)
    }

    /// Starts ticking; cancel the token to stop. Thread-safe.
    package func connect() -> Cancellable {
        lock.lock()
        if let running = connection {
            lock.unlock()
            return running
        }
        let made = TimerConnection()
        connection = made
        lock.unlock()
        let token = scheduler.schedule(
            after: scheduler.now.advanced(by: interval), interval: interval,
            tolerance: tolerance ?? scheduler.minimumTolerance, options: options
        ) { [weak self] in
            self?.tick()
        }
        made.attach(token) { [weak self] in
            self?.lock.withLock { if self?.connection === made { self?.connection = nil } }
        }
        return made
    }

    private func tick() {
        let now = scheduler.now
        let targets = lock.withLock { slots }
        for target in targets { target.deliver(now) }
    }

    fileprivate func remove(_ slot: TimerSlot<Output>) {
        lock.withLock { slots.removeAll { $0 === slot } }
    }
}

/// A running `SchedulerTimer` connection: cancelling it cancels the scheduler's repeat.
private final class TimerConnection: Cancellable, @unchecked Sendable {
    private let lock = Lock()
    private var token: Cancellable?
    private var onCancel: (() -> Void)?
    private var cancelled = false

    func attach(_ token: Cancellable, onCancel: @escaping () -> Void) {
        let already = lock.withLock { () -> Bool in
            if cancelled { return true }
            self.token = token
            self.onCancel = onCancel
            return false
        }
        if already {
            token.cancel()
            onCancel()
        }
    }

    func cancel() {
        lock.lock()
        guard !cancelled else { return lock.unlock() }
        cancelled = true
        let running = token
        let after = onCancel
        token = nil
        onCancel = nil
        lock.unlock()
        running?.cancel()
        after?()
    }
}

/// A subscriber's slot in a `SchedulerTimer`, type-erased over the subscriber.
private class TimerSlot<Output>: @unchecked Sendable {
    func deliver(_ time: Output) {}
}

private final class TimerSubscription<Context: Scheduler, Downstream: Subscriber>:
    TimerSlot<Context.SchedulerTimeType>, Subscription, @unchecked Sendable
where Downstream.Input == Context.SchedulerTimeType, Downstream.Failure == Never {
    private let lock = Lock()
    private var downstream: Downstream?
    private var timer: SchedulerTimer<Context>?
    private var demand = Subscribers.Demand.none

    init(downstream: Downstream, timer: SchedulerTimer<Context>) {
        self.downstream = downstream
        self.timer = timer
    }

    override func deliver(_ time: Context.SchedulerTimeType) {
        lock.lock()
        guard demand > 0, let target = downstream else { return lock.unlock() }
        demand -= 1
        lock.unlock()
        let extra = target.receive(time)
        lock.withLock { demand += extra }
    }

    func request(_ more: Subscribers.Demand) {
        lock.withLock { demand += more }
    }

    func cancel() {
        lock.lock()
        let target = downstream
        let owner = timer
        downstream = nil
        timer = nil
        lock.unlock()
        owner?.remove(self)
        withExtendedLifetime(target) {}
    }
}
