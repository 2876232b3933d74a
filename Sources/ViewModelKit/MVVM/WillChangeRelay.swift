import Synchronization

/// The inner subscriber of every MVVM subscription: it listens to an object's `objectWillChange`
/// and turns each event into a call of `onWillChange` (which only marks state and signals an event
/// source, so it is cheap and safe on any thread).
///
/// - Both edges: attached with `attach(to:)` to an `ObservableObjectPublisher`, it also listens
///   to that publisher's internal did-change channel (`@Published` reports there after it
///   stored) and calls `onDidChange`. So a change made on another thread signals before it
///   is stored *and* after: an update that ran in between (and drew the old value) is followed
///   by one more.
/// - It reports the end of the will-change stream through `onEnd`: a completion from the
///   publisher (an `ObservableObjectPublisher` finishes when it dies with its object), or the
///   relay's own deinit when a publisher that retained it goes away. The MVVM subscriptions use
///   that to notice that their (weakly held) object died.
final class WillChangeRelay<Input>: Subscriber, Cancellable, DidChangeListener, @unchecked Sendable {
    typealias Failure = Never

    // Constants, so the per-change path reads them without a lock; `active` stops them after
    // cancel or completion (their captures are weak or inert, so keeping them costs nothing).
    private let onWillChange: () -> Void
    private let onDidChange: () -> Void
    private let active = Atomic<Bool>(true)
    // Guards everything below; never held while calling out.
    private let lock = Lock()
    private var onEnd: (() -> Void)?
    private var upstream: Subscription?
    // Weak: the publisher must be free to die with its object (and finish us).
    private weak var didChangeSource: ObservableObjectPublisher?
    private var cancelled = false

    init(onWillChange: @escaping () -> Void, onDidChange: @escaping () -> Void, onEnd: @escaping () -> Void) {
        self.onWillChange = onWillChange
        self.onDidChange = onDidChange
        self.onEnd = onEnd
    }

    /// Subscribes to `publisher`, and to its did-change channel if it is an
    /// `ObservableObjectPublisher`.
    func attach<P: Publisher>(to publisher: P) where P.Output == Input, P.Failure == Never {
        if let observable = publisher as? ObservableObjectPublisher {
            let accepted = lock.withLock { () -> Bool in
                guard !cancelled else { return false }
                didChangeSource = observable
                return true
            }
            if accepted {
                observable.addDidChangeListener(self)
                // A cancel that ran in between could not remove what was not there yet.
                if lock.withLock({ cancelled }) { observable.removeDidChangeListener(self) }
            }
        }
        publisher.subscribe(self)
    }

    func receive(subscription: Subscription) {
        let accepted = lock.withLock { () -> Bool in
            guard !cancelled, upstream == nil else { return false }
            upstream = subscription
            return true
        }
        if accepted {
            subscription.request(.unlimited)
        } else {
            subscription.cancel()
        }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        if active.load(ordering: .acquiring) { onWillChange() }
        return .none
    }

    /// The did-change edge: the announced change is stored.
    func objectDidChange() {
        if active.load(ordering: .acquiring) { onDidChange() }
    }

    func receive(completion: Subscribers.Completion<Never>) {
        let (end, released, source) = lock.withLock {
            () -> ((() -> Void)?, Subscription?, ObservableObjectPublisher?) in
            let end = onEnd
            let released = upstream
            let source = didChangeSource
            active.store(false, ordering: .releasing)
            onEnd = nil
            upstream = nil
            didChangeSource = nil
            return (end, released, source)
        }
        source?.removeDidChangeListener(self)
        withExtendedLifetime(released) {}
        end?()
    }

    /// Detaches from the publisher; no callback runs after this returns (on this thread).
    func cancel() {
        let (subscription, source, end) = lock.withLock {
            () -> (Subscription?, ObservableObjectPublisher?, (() -> Void)?) in
            cancelled = true
            active.store(false, ordering: .releasing)
            defer {
                upstream = nil
                didChangeSource = nil
                onEnd = nil
            }
            return (upstream, didChangeSource, onEnd)
        }
        subscription?.cancel()
        source?.removeDidChangeListener(self)
        withExtendedLifetime(end) {}
    }

    deinit {
        // Only reached without cancel or completion: a publisher holding us died.
        let end = lock.withLock { onEnd }
        end?()
    }
}
