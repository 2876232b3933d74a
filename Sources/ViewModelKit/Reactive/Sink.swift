extension Subscribers {
    /// A subscriber that requests unlimited values and calls closures, as Combine's
    /// `Subscribers.Sink`.
    ///
    /// - It requests `.unlimited` when it receives its subscription. It accepts one subscription;
    ///   a second one is cancelled.
    /// - On completion or `cancel()` it drops its subscription and both closures (this breaks
    ///   retain cycles through captured objects). Values arriving after that are ignored.
    /// - `cancel()` is safe from any thread and idempotent. The closures run on the thread the
    ///   publisher delivers on.
    public final class Sink<Input, Failure: Error>: Subscriber, Cancellable, CustomStringConvertible,
        @unchecked Sendable
    {
        // Guards `status` and the closures; never held while calling them.
        private let lock = UnfairLock()
        private var receiveValueClosure: ((Input) -> Void)?
        private var receiveCompletionClosure: ((Subscribers.Completion<Failure>) -> Void)?
        private var status = Status.awaiting

        private enum Status {
            case awaiting
            case subscribed(Subscription)
            case terminal
        }

        /// The value closure, until completion or cancel (then `{ _ in }`).
        public var receiveValue: (Input) -> Void {
            lock.withLock { receiveValueClosure } ?? { _ in }
        }

        /// The completion closure, until completion or cancel (then `{ _ in }`).
        public var receiveCompletion: (Subscribers.Completion<Failure>) -> Void {
            lock.withLock { receiveCompletionClosure } ?? { _ in }
        }

        /// Creates a sink calling `receiveValue` for each value and `receiveCompletion` once.
        public init(
            receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
            receiveValue: @escaping (Input) -> Void
        ) {
            receiveValueClosure = receiveValue
            receiveCompletionClosure = receiveCompletion
        }

        /// `"Sink"`, as Combine's description.
        public var description: String { "Sink" }

        /// Stores `subscription` and requests `.unlimited`; cancels any later subscription.
        public func receive(subscription: Subscription) {
            lock.lock()
            guard case .awaiting = status else {
                lock.unlock()
                subscription.cancel()
                return
            }
            status = .subscribed(subscription)
            lock.unlock()
            subscription.request(.unlimited)
        }

        /// Calls the value closure; always returns `.none` (demand is already unlimited).
        @inline(__always)
        public func receive(_ input: Input) -> Subscribers.Demand {
            lock.lock()
            let body = receiveValueClosure
            lock.unlock()
            body?(input)
            return .none
        }

        /// Calls the completion closure once, then drops the closures and the subscription.
        public func receive(completion: Subscribers.Completion<Failure>) {
            lock.lock()
            let body = receiveCompletionClosure
            let previous = status
            status = .terminal
            receiveValueClosure = nil
            receiveCompletionClosure = nil
            lock.unlock()
            if case .terminal = previous { return }
            body?(completion)
        }

        /// Cancels the subscription and drops the closures. Safe from any thread; idempotent.
        public func cancel() {
            lock.lock()
            guard case let .subscribed(subscription) = status else {
                let value = receiveValueClosure
                let completion = receiveCompletionClosure
                status = .terminal
                receiveValueClosure = nil
                receiveCompletionClosure = nil
                lock.unlock()
                withExtendedLifetime((value, completion)) {}
                return
            }
            status = .terminal
            let value = receiveValueClosure
            let completion = receiveCompletionClosure
            receiveValueClosure = nil
            receiveCompletionClosure = nil
            lock.unlock()
            subscription.cancel()
            withExtendedLifetime((value, completion)) {}
        }
    }
}

extension Publisher {
    /// Attaches a `Subscribers.Sink` with both closures and returns it as an `AnyCancellable`,
    /// as Combine's `sink(receiveCompletion:receiveValue:)`. Dropping the token cancels at once.
    public func sink(
        receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
        receiveValue: @escaping (Output) -> Void
    ) -> AnyCancellable {
        let sink = Subscribers.Sink<Output, Failure>(
            receiveCompletion: receiveCompletion, receiveValue: receiveValue)
        subscribe(sink)
        return AnyCancellable(sink)
    }
}

extension Publisher where Failure == Never {
    /// Attaches a `Subscribers.Sink` that calls `receiveValue` for each value, as Combine's
    /// `sink(receiveValue:)` (available only when the publisher cannot fail).
    public func sink(receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
        sink(receiveCompletion: { _ in }, receiveValue: receiveValue)
    }
}
