/// The inner subscriber of every MVVM subscription: it listens to an object's `objectWillChange`
/// and turns each event into a call of `onChange` (which only marks state and signals an event
/// source, so it is cheap and safe on any thread).
///
/// It also reports the end of the will-change stream through `onEnd`: a completion from the
/// publisher, or the relay's own deinit when the publisher that retained it goes away with its
/// object. The MVVM subscriptions use that to notice that their (weakly held) object died.
final class WillChangeRelay<Input>: Subscriber, Cancellable, @unchecked Sendable {
    typealias Failure = Never

    // Guards everything below; never held while calling out.
    private let lock = UnfairLock()
    private var onChange: (() -> Void)?
    private var onEnd: (() -> Void)?
    private var upstream: Subscription?
    private var cancelled = false

    init(onChange: @escaping () -> Void, onEnd: @escaping () -> Void) {
        self.onChange = onChange
        self.onEnd = onEnd
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
        let callback = lock.withLock { onChange }
        callback?()
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {
        let (end, released) = lock.withLock { () -> ((() -> Void)?, Subscription?) in
            let end = onEnd
            let released = upstream
            onEnd = nil
            onChange = nil
            upstream = nil
            return (end, released)
        }
        withExtendedLifetime(released) {}
        end?()
    }

    /// Detaches from the publisher; no callback runs after this returns (on this thread).
    func cancel() {
        let (subscription, change, end) = lock.withLock {
            () -> (Subscription?, (() -> Void)?, (() -> Void)?) in
            cancelled = true
            defer {
                upstream = nil
                onChange = nil
                onEnd = nil
            }
            return (upstream, onChange, onEnd)
        }
        subscription?.cancel()
        withExtendedLifetime((change, end)) {}
    }

    deinit {
        // Only reached without cancel: the publisher holding us died (with its object).
        let end = lock.withLock { onEnd }
        end?()
    }
}
