/// The subscription behind `ObjectDidChangePublisher` and `ViewModelPublisher`.
///
/// One coalescing event source per subscription, created on the given scheduler with the given
/// options. Every will-change event, and every did-change report of `@Published` after it stored
/// (see `WillChangeRelay`), marks the object "pending" and signals the source; the source's
/// handler (on the scheduler) delivers the object once if there is demand, otherwise keeps it
/// pending until `request(_:)` brings demand back. The object is held weakly: when the handler
/// finds it gone it sends `.finished`. All values and the completion arrive on the scheduler, so
/// calls to the downstream are serialised by it (use a serial scheduler).
final class DidChangeSubscription<Object: AnyObject, Context: EventSourceScheduler>: Subscription,
    CustomStringConvertible, @unchecked Sendable
{
    // Guards everything below; never held while calling the downstream or the scheduler.
    private let lock = Lock()
    private weak var object: Object?
    private var deliver: ((Object) -> Subscribers.Demand)?
    private var complete: (() -> Void)?
    private var demand = Subscribers.Demand.none
    // True at start: the current object is owed to the first demand.
    private var pending = true
    private var source: Context.EventSourceType?
    private var relay: Cancellable?
    // For objects that cannot signal changes: finish after the first value.
    private let oneShot: Bool

    init(
        object: Object?,
        oneShot: Bool = false,
        deliver: @escaping (Object) -> Subscribers.Demand,
        complete: @escaping () -> Void
    ) {
        self.object = object
        self.oneShot = oneShot
        self.deliver = deliver
        self.complete = complete
    }

    var description: String { "ObjectDidChange" }

    /// Creates the event source and attaches the will-change relay. Call before handing the
    /// subscription downstream.
    func start<WillChange: Publisher>(
        scheduler: Context, options: Context.SchedulerOptions?, willChange: WillChange?
    ) where WillChange.Failure == Never {
        let newSource = scheduler.scheduleEventSource(options: options) { [weak self] _ in
            self?.service()
        }
        lock.withLock { source = newSource }
        guard let willChange else { return }
        let newRelay = WillChangeRelay<WillChange.Output>(
            onWillChange: { [weak self] in self?.objectWillChange() },
            onDidChange: { [weak self] in self?.objectWillChange() },
            onEnd: { [weak self] in self?.signal() })
        lock.withLock { relay = newRelay }
        newRelay.attach(to: willChange)
    }

    func request(_ extra: Subscribers.Demand) {
        let toSignal = lock.withLock { () -> Context.EventSourceType? in
            guard deliver != nil else { return nil }
            demand += extra
            return pending && demand > 0 ? source : nil
        }
        toSignal?.signal()
    }

    func cancel() {
        let (oldSource, oldRelay, closures) = lock.withLock {
            () -> (Context.EventSourceType?, Cancellable?, Any?) in
            defer {
                source = nil
                relay = nil
                deliver = nil
                complete = nil
            }
            return (source, relay, (deliver, complete) as Any)
        }
        oldSource?.cancel()
        oldRelay?.cancel()
        withExtendedLifetime(closures) {}
    }

    // MARK: - Events

    private func objectWillChange() {
        let toSignal = lock.withLock { () -> Context.EventSourceType? in
            guard deliver != nil else { return nil }
            pending = true
            return source
        }
        toSignal?.signal()
    }

    /// A liveness check: the will-change stream ended (its object may be gone).
    private func signal() {
        lock.withLock { source }?.signal()
    }

    private enum Step {
        case idle
        case deliver(Object, (Object) -> Subscribers.Demand, finish: (() -> Void)?)
        case finish(() -> Void, Context.EventSourceType?, Cancellable?)
    }

    /// The event source handler, on the scheduler.
    private func service() {
        let step = lock.withLock { () -> Step in
            guard let deliver, let complete else { return .idle }
            guard let object else {
                defer {
                    self.deliver = nil
                    self.complete = nil
                    source = nil
                    relay = nil
                }
                return .finish(complete, source, relay)
            }
            guard pending, demand > 0 else { return .idle }
            pending = false
            demand -= 1
            if oneShot {
                self.deliver = nil
                self.complete = nil
                return .deliver(object, deliver, finish: complete)
            }
            return .deliver(object, deliver, finish: nil)
        }
        switch step {
        case .idle:
            return
        case let .deliver(object, deliver, finish):
            let more = deliver(object)
            if let finish {
                let oldSource = lock.withLock { () -> Context.EventSourceType? in
                    defer { source = nil }
                    return source
                }
                oldSource?.cancel()
                finish()
            } else if more > 0 {
                let toSignal = lock.withLock { () -> Context.EventSourceType? in
                    guard self.deliver != nil else { return nil }
                    demand += more
                    return pending ? source : nil
                }
                toSignal?.signal()
            }
        case let .finish(complete, oldSource, oldRelay):
            oldSource?.cancel()
            oldRelay?.cancel()
            complete()
        }
    }
}
