extension Subscribers {
    /// A subscriber that writes each value to a key path of an object, as Combine's
    /// `Subscribers.Assign`.
    ///
    /// - It requests `.unlimited` when it receives its subscription (a second one is cancelled).
    /// - It holds `object` strongly until completion or `cancel()`, then releases it and the
    ///   subscription (a retain cycle through the object lasts until then, as in Combine).
    /// - The write happens on the thread the publisher delivers on. `cancel()` is safe from any
    ///   thread and idempotent.
    public final class Assign<Root, Input>: Subscriber, Cancellable, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
    {
        /// Never: the assigned publisher cannot fail.
        public typealias Failure = Never

        private let lock = Lock()
        private var target: Root?
        private var subscription: Subscription?
        private var terminated = false

        /// The key path written to.
        public let keyPath: ReferenceWritableKeyPath<Root, Input>

        /// The object written to, until completion or cancel (then `nil`).
        public var object: Root? { lock.withLock { target } }

        /// Creates a subscriber that writes to `object[keyPath: keyPath]`.
        public init(object: Root, keyPath: ReferenceWritableKeyPath<Root, Input>) {
            self.target = object
            self.keyPath = keyPath
        }

        /// `"Assign <Root>."`-style description naming the root type, as Combine's.
        public var description: String { "Assign \(Root.self)." }

        /// As Combine's: the `object` (nil once ended), the `keyPath` and the `status`
        /// (`"awaitingSubscription"`, `"subscribed"` or `"terminal"`). Any thread.
        public var customMirror: Mirror {
            lock.lock()
            let root = target
            let status = terminated ? "terminal" : subscription == nil ? "awaitingSubscription" : "subscribed"
            lock.unlock()
            let children: KeyValuePairs<String, Any> = ["object": root as Any, "keyPath": keyPath, "status": status]
            return Mirror(self, children: children)
        }

        /// The description, as Combine's.
        public var playgroundDescription: Any { description }

        /// Stores `subscription` and requests `.unlimited`; cancels any later subscription.
        public func receive(subscription: Subscription) {
            lock.lock()
            guard self.subscription == nil, !terminated else {
                lock.unlock()
                subscription.cancel()
                return
            }
            self.subscription = subscription
            lock.unlock()
            subscription.request(.unlimited)
        }

        /// Writes `input` to the object's key path; returns `.none`.
        public func receive(_ input: Input) -> Subscribers.Demand {
            lock.lock()
            // Before the subscription (a precondition failure in Combine) or after the end:
            // dropped.
            let root = subscription == nil ? nil : target
            lock.unlock()
            if let root { root[keyPath: keyPath] = input }
            return .none
        }

        /// Releases the object and the subscription.
        public func receive(completion: Subscribers.Completion<Never>) {
            lock.lock()
            terminated = true
            let root = target
            let upstream = subscription
            target = nil
            subscription = nil
            lock.unlock()
            withExtendedLifetime((root, upstream)) {}
        }

        /// Cancels the subscription and releases the object. Safe from any thread; idempotent.
        public func cancel() {
            lock.lock()
            terminated = true
            let root = target
            let upstream = subscription
            target = nil
            subscription = nil
            lock.unlock()
            upstream?.cancel()
            withExtendedLifetime(root) {}
        }
    }
}

extension Publisher where Failure == Never {
    /// Writes each value to `object[keyPath: keyPath]`, as Combine's `assign(to:on:)`.
    /// The returned token (and the subscription) keep `object` alive until cancelled or until
    /// the publisher completes.
    public func assign<Root>(
        to keyPath: ReferenceWritableKeyPath<Root, Output>, on object: Root
    ) -> AnyCancellable {
        let subscriber = Subscribers.Assign(object: object, keyPath: keyPath)
        subscribe(subscriber)
        return AnyCancellable(subscriber)
    }
}
