/// The subscription behind `ObjectDidChangePublisher` and `ViewModelPublisher`.
///
/// One coalescing event source per subscription, created on the given scheduler with the given
/// options. The first demand gets the current object synchronously. After that, every
/// will-change event, and every did-change report of `@Published` after it stored (see
/// `WillChangeRelay`), marks the object "pending" and signals the source; the source's handler
/// (on the scheduler) delivers the object once if there is demand, otherwise keeps it pending
/// until `request(_:)` brings demand back. The object is held weakly: when the handler finds it
/// gone it sends `.finished`; a will-change stream that completes while the object lives finishes
/// the subscription at once. Apart from the first value and that completion, values and the
/// completion arrive on the scheduler, so calls to the downstream are serialised by it (use a
/// serial scheduler, and subscribe on its thread).
///
/// The per-change path is the `@ViewModel` path's: the relay holds the lock-free `ChangeSignal`
/// strongly, so a change takes no lock and loads no weak reference, and every change after the
/// first of a turn returns after one atomic load.
final class DidChangeSubscription<Object: AnyObject, Context: EventSourceScheduler>: Subscription,
    CustomStringConvertible, @unchecked Sendable
{
    // "Pending" (a change waits for a value) and "signalled", lock-free; see `ChangeSignal`.
    private let signal = ChangeSignal()
    // Guards everything below; never held while calling the downstream or the scheduler.
    private let lock = Lock()
    private weak var object: Object?
    private var deliver: ((Object) -> Subscribers.Demand)?
    private var complete: (() -> Void)?
    private var demand = Subscribers.Demand.none
    // Set by the first request, which delivers the current object synchronously; later values
    // go through the source.
    private var requested = false
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
        signal.install(newSource)
        lock.withLock { source = newSource }
        guard let willChange else { return }
        let newRelay = WillChangeRelay<WillChange.Output>(
            onWillChange: { [signal] in signal.willChange() },
            onDidChange: { [signal] in signal.didChange() },
            onEnd: { [weak self] in self?.willChangeEnded() })
        lock.withLock { relay = newRelay }
        newRelay.attach(to: willChange)
    }

    func request(_ extra: Subscribers.Demand) {
        let step = lock.withLock { () -> Step in
            guard let deliver else { return .idle }
            demand += extra
            // The first demand gets the current object at once, on the caller's thread
            // (CombineViewModel's observe(on:)); later changes go through the source.
            if !requested {
                requested = true
                guard demand > 0 else { return .idle }
                // Dead already: finish on the scheduler, as for a death noticed later.
                guard let object else { return source.map(Step.signal) ?? .idle }
                demand -= 1
                signal.clearDirty()  // this value shows every change made so far
                guard oneShot else { return .deliver(object, deliver, finish: nil) }
                let finish = complete
                self.deliver = nil
                self.complete = nil
                return .deliver(object, deliver, finish: finish)
            }
            guard demand > 0, signal.isDirty, let source else { return .idle }
            return .signal(source)
        }
        perform(step)
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

    /// The will-change stream ended. While the object lives (a custom `objectWillChange` that
    /// completed) the subscription finishes at once, on this thread, as CombineViewModel's does.
    /// When the object died (its `ObservableObjectPublisher` finishes as it goes) it finishes on
    /// the scheduler's next turn, through the source.
    private func willChangeEnded() {
        let step = lock.withLock { () -> Step in
            guard deliver != nil, let complete else { return .idle }
            guard object != nil else { return source.map(Step.signal) ?? .idle }
            defer {
                self.deliver = nil
                self.complete = nil
                source = nil
                relay = nil
            }
            return .finish(complete, source, relay)
        }
        perform(step)
    }

    private enum Step {
        case idle
        case signal(Context.EventSourceType)
        case deliver(Object, (Object) -> Subscribers.Demand, finish: (() -> Void)?)
        case finish(() -> Void, Context.EventSourceType?, Cancellable?)
    }

    /// The event source handler, on the scheduler.
    private func service() {
        // Clears "pending" and "signalled" first: a change from now on signals again.
        let pending = signal.takeForService()
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
            guard pending else { return .idle }
            guard requested, demand > 0 else {
                signal.keepDirty()  // delivered when demand comes back
                return .idle
            }
            demand -= 1
            if oneShot {
                self.deliver = nil
                self.complete = nil
                return .deliver(object, deliver, finish: complete)
            }
            return .deliver(object, deliver, finish: nil)
        }
        perform(step)
    }

    /// After a value went downstream: finishes a one-shot subscription, or adds the demand the
    /// subscriber returned (and signals if a change is waiting for it).
    private func delivered(_ more: Subscribers.Demand, finish: (() -> Void)?) {
        if let finish {
            let (oldSource, oldRelay) = lock.withLock { () -> (Context.EventSourceType?, Cancellable?) in
                defer {
                    source = nil
                    relay = nil
                }
                return (source, relay)
            }
            oldSource?.cancel()
            oldRelay?.cancel()
            finish()
        } else if more > 0 {
            let toSignal = lock.withLock { () -> Context.EventSourceType? in
                guard self.deliver != nil else { return nil }
                demand += more
                return signal.isDirty ? source : nil
            }
            toSignal?.signal()
        }
    }

    /// Carries out what a locked section decided, outside the lock.
    private func perform(_ step: Step) {
        switch step {
        case .idle:
            return
        case .signal(let source):
            source.signal()
        case .deliver(let object, let deliver, let finish):
            delivered(deliver(object), finish: finish)
        case .finish(let complete, let oldSource, let oldRelay):
            oldSource?.cancel()
            oldRelay?.cancel()
            complete()
        }
    }
}
