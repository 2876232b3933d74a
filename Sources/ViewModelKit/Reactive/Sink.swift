extension Subscribers {
    /// A subscriber that requests unlimited values and calls closures, as Combine's
    /// `Subscribers.Sink`.
    ///
    /// - It requests `.unlimited` when it receives its subscription. It accepts one subscription;
    ///   a second one, and one after the end, is cancelled.
    /// - As Combine's, it calls its closures for whatever it is sent until it has ended, even
    ///   before its subscription (a publisher that completes before subscribing still gets its
    ///   completion through).
    /// - On completion or `cancel()` it drops its subscription and
    ///   releases both closures (and whatever they captured), as Combine's: a sink kept alive by
    ///   its token or its publisher keeps no view model alive once it has ended. Values and
    ///   completions after that are ignored. A `cancel()` before any subscription ends the sink
    ///   too, and a subscription arriving later is cancelled (Combine ignores that early
    ///   `cancel()`, so a cancelled token could still receive values).
    /// - `cancel()` is safe from any thread and idempotent. The closures run on the thread the
    ///   publisher delivers on; the value path takes the sink's inline lock only to read the
    ///   closure.
    public final class Sink<Input, Failure: Error>: Subscriber, Cancellable, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
    {
        /// Called with each value; a no-op once the sink has ended.
        public var receiveValue: (Input) -> Void {
            lock.lock()
            defer { lock.unlock() }
            return valueBody
        }
        /// Called once with the completion; a no-op once the sink has ended.
        public var receiveCompletion: (Subscribers.Completion<Failure>) -> Void {
            lock.lock()
            defer { lock.unlock() }
            return completionBody
        }

        @usableFromInline @exclusivity(unchecked) var valueBody: (Input) -> Void
        @exclusivity(unchecked) private var completionBody: (Subscribers.Completion<Failure>) -> Void

        // Guards the fields (hence `@exclusivity(unchecked)`: every access is under it); never
        // held while calling out. Inline: a sink is one allocation (row "6 subscription memory").
        @usableFromInline let lock = InlineLock()
        @usableFromInline @exclusivity(unchecked) var status = Status.awaiting
        // The subscription while `.subscribed`, kept as an object (8 bytes rather than a 40-byte
        // existential, which would push the sink into a larger malloc size class); read back
        // with a cast, only on cancel. Subscriptions are classes in practice; a value-type one
        // is boxed.
        @exclusivity(unchecked) private var upstream: AnyObject?

        @usableFromInline
        enum Status: UInt8 {
            case awaiting
            case subscribed
            case terminal
        }

        /// Creates a sink calling `receiveValue` for each value and `receiveCompletion` once.
        public init(
            receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
            receiveValue: @escaping (Input) -> Void
        ) {
            self.valueBody = receiveValue
            self.completionBody = receiveCompletion
        }

        /// `"Sink"`, as Combine's description.
        public var description: String { "Sink" }

        /// A mirror without children, as Combine's.
        public var customMirror: Mirror { Mirror(self, children: [:]) }

        /// `"Sink"`, as Combine's.
        public var playgroundDescription: Any { description }

        /// Stores `subscription` and requests `.unlimited`; cancels any later subscription.
        public func receive(subscription: Subscription) {
            lock.lock()
            guard status == .awaiting else {
                lock.unlock()
                subscription.cancel()
                return
            }
            status = .subscribed
            upstream = subscription as AnyObject
            lock.unlock()
            subscription.request(.unlimited)
        }

        /// Calls `receiveValue`; always returns `.none` (demand is already unlimited).
        ///
        /// Inlinable (with the lock's fast path, the status and the value closure), so that the
        /// end of a chain runs specialised in a client built without flags.
        @inlinable @inline(__always)
        public func receive(_ input: Input) -> Subscribers.Demand {
            lock.lock()
            // After the end: dropped. Before the subscription it is delivered, as Combine's.
            guard status != .terminal else {
                lock.unlock()
                return .none
            }
            let body = valueBody
            lock.unlock()
            body(input)
            return .none
        }

        /// Calls `receiveCompletion` once, then drops the subscription and both closures.
        public func receive(completion: Subscribers.Completion<Failure>) {
            lock.lock()
            let previous = status
            let released = upstream
            let body = completionBody
            let valueBody = self.valueBody
            status = .terminal
            upstream = nil
            self.valueBody = { _ in }
            completionBody = { _ in }
            lock.unlock()
            // After the end: dropped. Before the subscription it is delivered, as Combine's
            // (a subject's completion racing a subscriber on another thread used to be lost).
            if previous == .terminal { return }
            body(completion)
            withExtendedLifetime((released, valueBody)) {}
        }

        /// Cancels the subscription. Safe from any thread; idempotent.
        public func cancel() {
            lock.lock()
            let previous = status
            let held = upstream
            let released = (valueBody, completionBody)
            status = .terminal
            upstream = nil
            valueBody = { _ in }
            completionBody = { _ in }
            lock.unlock()
            if previous == .subscribed, let subscription = held as? Subscription {
                subscription.cancel()
            }
            withExtendedLifetime(released) {}  // what the closures captured dies outside the lock
        }
    }
}

extension Publisher {
    /// Attaches a `Subscribers.Sink` with both closures and returns it as an `AnyCancellable`,
    /// as Combine's `sink(receiveCompletion:receiveValue:)`. Dropping the token cancels at once.
    @inlinable
    public func sink(
        receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
        receiveValue: @escaping (Output) -> Void
    ) -> AnyCancellable {
        let sink = Subscribers.Sink<Output, Failure>(
            receiveCompletion: receiveCompletion, receiveValue: receiveValue)
        subscribe(sink)
        // A closure built here (specialised with the sink) rather than `AnyCancellable(sink)`,
        // whose unspecialised bound-method closure allocates a context per token.
        return AnyCancellable { [sink] in sink.cancel() }
    }
}

extension Publisher where Failure == Never {
    /// Attaches a `Subscribers.Sink` that calls `receiveValue` for each value, as Combine's
    /// `sink(receiveValue:)` (available only when the publisher cannot fail).
    @inlinable
    public func sink(receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
        sink(receiveCompletion: { _ in }, receiveValue: receiveValue)
    }
}
